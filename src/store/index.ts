export { openStore, describeDatabaseUrl, type Store, type Repositories, type Dialect } from './store.js';
