export { createGateway, startGateway } from './bootstrap.js';
