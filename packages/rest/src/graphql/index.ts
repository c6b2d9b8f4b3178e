// GraphQL servers: the SDL of the connection types `connectionFromQuery` answers, and the masking
// hooks that let Pagewise's client errors reach GraphQL clients.
export { isClientApiError, unmaskApiErrors } from './graphql-errors.js';
export { connectionArgs, connectionTypeDefs, pageInfoTypeDefs } from './graphql-types.js';
export { type SelectionInfo, selectsField } from './selected-fields.js';
