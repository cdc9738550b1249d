package dev.perflab.send.delivery;

/**
 * A job one worker claimed: {@code attempt} is the attempt its claim made, the token only this claim holds. Every
 * later statement about the job (load, lease renewal, settle) is conditional on it, so a worker whose lease ran out
 * and whose job another worker claimed again changes nothing and stops.
 */
record Claim(String jobId, int attempt) {
}
