export { default } from '../views/ViewBeingBuilt';
