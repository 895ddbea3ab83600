// CSS imports are bundled by Vite into one stylesheet.
declare module '*.css';
