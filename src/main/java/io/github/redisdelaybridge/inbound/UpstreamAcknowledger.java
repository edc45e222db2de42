package io.github.redisdelaybridge.inbound;

/** The last step of an inbound route: every message of the batch is safe, so tell the source broker. */
public final class UpstreamAcknowledger {

    /** Camel bean method. */
    public void acknowledge(IngestReport report) throws Exception {
        report.acknowledgement().acknowledge();
    }
}
