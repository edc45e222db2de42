package io.github.redisdelaybridge.dispatch;

/**
 * A claimed message later than its target pattern's maximum lateness allows: it is dead-lettered as {@code expired}, never
 * published. Not a publish failure: no attempt is counted.
 */
final class MessageExpiredException extends RuntimeException {

    MessageExpiredException(String patternName, long latenessMs, long maxLatenessMs) {
        super(latenessMs + " ms late when the bridge took it, later than bridge.targets." + patternName + ".max-lateness-ms ("
                + maxLatenessMs + " ms); not delivered", null, false, false);
    }
}
