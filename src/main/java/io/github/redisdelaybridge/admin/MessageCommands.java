package io.github.redisdelaybridge.admin;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.redisdelaybridge.dispatch.DispatchWakeup;
import io.github.redisdelaybridge.inbound.DueTimeParser;
import io.github.redisdelaybridge.message.DueTime;
import io.github.redisdelaybridge.metrics.BridgeMetrics;
import io.github.redisdelaybridge.metrics.Via;
import io.github.redisdelaybridge.store.connection.DurabilityBarrier;
import io.github.redisdelaybridge.store.ingest.CancelOutcome;
import io.github.redisdelaybridge.store.ingest.DueTimeChange;
import io.github.redisdelaybridge.store.ingest.IngestStore;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.apache.camel.Exchange;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Admin endpoints that change a pending message: cancel and reschedule. Unlike a cancel control message,
 * a DELETE of an id that is not known is a 404 and records nothing: the caller sees the current state,
 * so there is no later arrival to wait for (use a control message on the inbound topic for that).
 * A change is answered only once Redis confirmed it as durably as {@code bridge.redis.wait-*} promise; else 503.
 */
public final class MessageCommands {

    private static final Logger LOG = LoggerFactory.getLogger(MessageCommands.class);
    private static final String DUE_EXAMPLE = "{\"delayMs\": 30000} or {\"deliverAt\": \"2026-12-01T10:00:00Z\"}";

    private final IngestStore store;
    private final DueTimeParser dueTimeParser;
    private final DispatchWakeup wakeup;
    private final BridgeMetrics metrics;
    private final long redisTimeoutMs;
    private final DurableWrites durably;

    public MessageCommands(IngestStore store, DurabilityBarrier barrier, DueTimeParser dueTimeParser, DispatchWakeup wakeup,
                           BridgeMetrics metrics, long redisTimeoutMs) {
        this.store = store;
        this.durably = new DurableWrites(barrier, redisTimeoutMs);
        this.dueTimeParser = dueTimeParser;
        this.wakeup = wakeup;
        this.metrics = metrics;
        this.redisTimeoutMs = redisTimeoutMs;
    }

    /** Camel bean method: {@code DELETE /api/messages/{id}}. */
    public ApiResponse cancel(Exchange exchange) {
        String id = MessageQueries.messageId(exchange);
        CancelOutcome outcome = durably.write(store.keys().slotOf(id), () -> store.cancel(id, false));
        metrics.cancel(outcome, Via.HTTP);
        String quoted = "'" + ApiRequests.abbreviate(id) + "'";
        switch (outcome) {
            case WITHDRAWN, RECORDED -> {
                LOG.info("cancelled {} (HTTP): it will not be delivered", id);
                return ApiResponse.noContent();
            }
            case ALREADY_CANCELLED -> {
                return ApiResponse.noContent();
            }
            case NOT_FOUND -> throw ApiException.notFound("no pending message " + quoted);
            case IN_FLIGHT -> {
                LOG.warn("cannot cancel {} (HTTP): it is being delivered already", id);
                throw ApiException.conflict("message " + quoted + " is being delivered already; it can no longer be cancelled");
            }
            case ALREADY_DELIVERED -> {
                LOG.warn("cannot cancel {} (HTTP): it was delivered already", id);
                throw ApiException.conflict("message " + quoted + " was delivered already");
            }
            case DEAD_LETTER -> throw ApiException.conflict("message " + quoted + " is a dead letter and will not be delivered unless"
                    + " replayed; to drop it: DELETE /api/dead-letters/{id}");
        }
        throw new IllegalStateException("unhandled cancel outcome " + outcome);
    }

    /** Camel bean method: {@code PUT /api/messages/{id}/due} with {@code {"delayMs": n}} or {@code {"deliverAt": "..."}}. */
    public ApiResponse changeDueTime(Exchange exchange) {
        String id = MessageQueries.messageId(exchange);
        JsonNode body = ApiRequests.jsonObject(ApiRequests.body(exchange),
                Set.of(ApiRequests.DELAY_MS, ApiRequests.DELIVER_AT), DUE_EXAMPLE);
        DueTime dueTime = ApiRequests.dueTime(body, dueTimeParser, true);
        DueTimeChange change = durably.write(store.keys().slotOf(id), () -> store.changeDueTime(id, dueTime));
        metrics.reschedule(change.outcome(), Via.HTTP);
        String quoted = "'" + ApiRequests.abbreviate(id) + "'";
        switch (change.outcome()) {
            case CHANGED -> {
                LOG.info("rescheduled {} (HTTP): now due at {}", id, change.dueAt());
                wakeup.wakeIfEarlierThan(change.dueAt());
                Map<String, Object> view = new LinkedHashMap<>();
                view.put("id", id);
                view.put("state", "pending");
                view.put("dueAt", change.dueAt());
                return ApiResponse.ok(view);
            }
            case NOT_PENDING -> throw ApiException.notFound("no pending message " + quoted);
            case IN_FLIGHT -> {
                LOG.warn("cannot reschedule {} (HTTP): it is being delivered already", id);
                throw ApiException.conflict("message " + quoted + " is being delivered already; its due time can no longer change");
            }
            case DELAY_TOO_LONG -> throw ApiException.badRequest("the new due time lies beyond the maximum delay of "
                    + store.limits().maxDelayMs() + " ms (bridge.delay.max-ms), measured on Redis's clock");
        }
        throw new IllegalStateException("unhandled reschedule outcome " + change.outcome());
    }
}
