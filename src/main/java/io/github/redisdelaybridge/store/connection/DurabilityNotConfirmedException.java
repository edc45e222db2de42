package io.github.redisdelaybridge.store.connection;

/** Redis did not confirm a batch's writes as durable as promised in time: the batch must not be acknowledged upstream. */
public final class DurabilityNotConfirmedException extends RuntimeException {

    public DurabilityNotConfirmedException(String message) {
        super(message);
    }
}
