// A separate Next app for the bench's bounds (npm run bench builds it); nothing here ships.
export default { poweredByHeader: false };
