export interface Page {
  offset: number;
  limit: number;
}

export interface PageResult<T> {
  rows: T[];
  total: number;
}
