/**
 * A readiness probe must answer quickly even when a dependency hangs (a dropped TCP connection
 * does not refuse, it just never answers): each dependency check gives up after this long.
 */
export const HEALTH_CHECK_TIMEOUT_MS = 2_000;
