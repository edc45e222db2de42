package io.github.redisdelaybridge.admin;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.redisdelaybridge.dispatch.DispatchWakeup;
import io.github.redisdelaybridge.inbound.DueTimeParser;
import io.github.redisdelaybridge.message.DueTime;
import io.github.redisdelaybridge.store.connection.DurabilityBarrier;
import io.github.redisdelaybridge.store.ingest.GroupOutcome;
import io.github.redisdelaybridge.store.ingest.IngestStore;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.apache.camel.Exchange;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Admin endpoints that change every pending message of a group: {@code DELETE /api/groups/{group}} (cancel) and
 * {@code POST /api/groups/{group}/reschedule}. Each answers with the counts: messages changed, and messages in flight, which
 * are left alone; {@code ?dry-run=true} answers the counts and changes nothing. A group with no message is a 200 with zero
 * counts, not a 404: the group is a label, and repeating a cancel is harmless. A change is answered only once Redis confirmed
 * it as durably as {@code bridge.redis.wait-*} promise; else 503 (repeat the request).
 */
public final class GroupCommands {

    private static final Logger LOG = LoggerFactory.getLogger(GroupCommands.class);
    private static final String DUE_EXAMPLE = "{\"delayMs\": 30000} or {\"deliverAt\": \"2026-12-01T10:00:00Z\"}";
    /** A whole group is many script calls, each bounded by the Redis timeout; this bounds how many the answer waits for. */
    private static final int CALLS_WAITED_FOR = 1_000;

    private final IngestStore store;
    private final DueTimeParser dueTimeParser;
    private final DispatchWakeup wakeup;
    private final long redisTimeoutMs;
    private final DurableWrites durably;

    public GroupCommands(IngestStore store, DurabilityBarrier barrier, DueTimeParser dueTimeParser, DispatchWakeup wakeup, long redisTimeoutMs) {
        this.store = store;
        this.durably = new DurableWrites(barrier, redisTimeoutMs);
        this.dueTimeParser = dueTimeParser;
        this.wakeup = wakeup;
        this.redisTimeoutMs = redisTimeoutMs;
    }

    static long answerMs(IngestStore store, long redisTimeoutMs) {
        return redisTimeoutMs * Math.max(CALLS_WAITED_FOR, store.keys().slotCount());
    }

    /** Camel bean method: {@code DELETE /api/groups/{group}[?dry-run=true]}. */
    public ApiResponse cancel(Exchange exchange) {
        String group = GroupNames.group(exchange);
        boolean dryRun = ApiRequests.flag(ApiRequests.param(exchange, "dry-run"), "dry-run");
        GroupOutcome outcome = dryRun ? StoreAnswers.await(store.cancelGroup(group, true), answerMs(store, redisTimeoutMs))
                : durably.write(allSlots(), answerMs(store, redisTimeoutMs), () -> store.cancelGroup(group, false));
        if (!dryRun) {
            LOG.info("cancelled {} pending messages of group {} (HTTP); {} in flight left alone", outcome.changed(), group, outcome.inFlight());
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("group", group);
        body.put("dryRun", dryRun);
        body.put("cancelled", outcome.changed());
        body.put("inFlight", outcome.inFlight());
        return ApiResponse.ok(body);
    }

    /** Camel bean method: {@code POST /api/groups/{group}/reschedule[?dry-run=true]} with {@code {"delayMs": n}} or {@code {"deliverAt": "..."}}. */
    public ApiResponse reschedule(Exchange exchange) {
        String group = GroupNames.group(exchange);
        boolean dryRun = ApiRequests.flag(ApiRequests.param(exchange, "dry-run"), "dry-run");
        JsonNode json = ApiRequests.jsonObject(ApiRequests.body(exchange), Set.of(ApiRequests.DELAY_MS, ApiRequests.DELIVER_AT), DUE_EXAMPLE);
        DueTime dueTime = ApiRequests.dueTime(json, dueTimeParser, true);
        GroupOutcome outcome = dryRun ? StoreAnswers.await(store.rescheduleGroup(group, dueTime, true), answerMs(store, redisTimeoutMs))
                : durably.write(allSlots(), answerMs(store, redisTimeoutMs), () -> store.rescheduleGroup(group, dueTime, false));
        if (outcome.tooLate()) {
            throw ApiException.badRequest("the new due time lies beyond the maximum delay of " + store.limits().maxDelayMs()
                    + " ms (bridge.delay.max-ms), measured on Redis's clock; no message of the group was changed");
        }
        if (!dryRun) {
            LOG.info("rescheduled {} pending messages of group {} (HTTP): now due at {}; {} in flight left alone", outcome.changed(), group,
                    outcome.dueAt(), outcome.inFlight());
            if (outcome.changed() > 0) {
                wakeup.wakeIfEarlierThan(outcome.dueAt());
            }
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("group", group);
        body.put("dryRun", dryRun);
        body.put("rescheduled", outcome.changed());
        body.put("inFlight", outcome.inFlight());
        body.put("dueAt", outcome.dueAt() < 0 ? null : outcome.dueAt());
        return ApiResponse.ok(body);
    }

    private List<Integer> allSlots() {
        return IntStream.range(0, store.keys().slotCount()).boxed().toList();
    }
}
