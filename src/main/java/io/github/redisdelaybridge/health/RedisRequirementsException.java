package io.github.redisdelaybridge.health;

/** The Redis the bridge was pointed at cannot give what the bridge needs or promises: the bridge does not start. */
public final class RedisRequirementsException extends RuntimeException {

    public RedisRequirementsException(String message) {
        super(message);
    }
}
