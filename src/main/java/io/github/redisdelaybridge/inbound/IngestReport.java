package io.github.redisdelaybridge.inbound;

/** What became of one inbound batch; carries the upstream acknowledgement to the route's last step. */
public record IngestReport(int scheduled, int duplicates, int deadLettered, UpstreamAcknowledgement acknowledgement) {
}
