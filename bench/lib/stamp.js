'use strict';
/** A run id for database names and Redis prefixes: sortable and unique per process. */
function runStamp() {
  return `${Date.now().toString(36)}_${process.pid}`;
}
module.exports = { runStamp };
