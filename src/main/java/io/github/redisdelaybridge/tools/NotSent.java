package io.github.redisdelaybridge.tools;

/** The message was not sent: the one line bin/publish reports, exit status 1. */
final class NotSent extends Exception {

    NotSent(String message) {
        super(message);
    }
}
