export { rot13 } from './rot13.js';
