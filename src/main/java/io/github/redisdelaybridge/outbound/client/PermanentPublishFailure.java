package io.github.redisdelaybridge.outbound.client;

/**
 * A target broker refused one message for a reason that trying again cannot fix (RabbitMQ returned it as unroutable):
 * the dispatcher dead-letters it at once instead of retrying it until the maximum age (outbound/PublishFailures).
 */
public final class PermanentPublishFailure extends Exception {

    public PermanentPublishFailure(String detail) {
        super(detail, null, false, false);
    }
}
