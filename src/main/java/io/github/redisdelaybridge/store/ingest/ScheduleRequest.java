package io.github.redisdelaybridge.store.ingest;

import io.github.redisdelaybridge.message.DueTime;
import io.github.redisdelaybridge.message.Envelope;

/** A validated message ready to be stored: its id, when it falls due, and its envelope. */
public record ScheduleRequest(String messageId, DueTime dueTime, Envelope envelope) {
}
