package io.github.redisdelaybridge.dispatch;

/** A claimed record that cannot be decoded or names an unparseable target: retrying cannot help. */
final class UnreadableRecordException extends RuntimeException {

    UnreadableRecordException(Throwable cause) {
        super(cause.getMessage(), cause);
    }
}
