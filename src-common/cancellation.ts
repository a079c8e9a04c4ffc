/**
 * The message of a job the user cancelled: a worker task throws it when its cancel flag is set,
 * and the host's job runner throws it for a job cancelled between tasks; both map it to the
 * job state 'cancelled'.
 */
export const CANCELLED_MESSAGE = 'cancelled by the user';
