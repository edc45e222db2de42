package io.github.redisdelaybridge.inbound;

/**
 * What became of one inbound batch; carries the upstream acknowledgement to the route's last step.
 *
 * @param cancelled messages dropped on arrival because their cancel had come first
 * @param controls  control messages applied (whatever their outcome; refused ones count as dead-lettered too)
 */
public record IngestReport(int scheduled, int duplicates, int cancelled, int controls, int deadLettered,
                           UpstreamAcknowledgement acknowledgement) {
}
