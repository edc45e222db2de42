package io.github.redisdelaybridge.dispatch;

/**
 * A claimed message that was not handed to its broker: the broker blocks publishing, the target is at its
 * in-flight bound without making progress, or the message waited for its lane until its publish timed out.
 * Nothing of it reached a broker, so it goes back to Redis for later without counting an attempt.
 */
final class NotSentException extends RuntimeException {

    private final long waitingSinceEpochMs;

    NotSentException(String reason, long waitingSinceEpochMs) {
        super(reason, null, false, false);
        this.waitingSinceEpochMs = waitingSinceEpochMs;
    }

    /** Since when the cause has held (epoch ms): the longer, the longer the message waits before it is tried again. */
    long waitingSinceEpochMs() {
        return waitingSinceEpochMs;
    }
}
