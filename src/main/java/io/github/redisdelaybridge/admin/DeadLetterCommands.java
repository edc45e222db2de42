package io.github.redisdelaybridge.admin;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.redisdelaybridge.dispatch.DispatchWakeup;
import io.github.redisdelaybridge.inbound.DelayRequestValidator;
import io.github.redisdelaybridge.inbound.DueTimeParser;
import io.github.redisdelaybridge.message.DueTime;
import io.github.redisdelaybridge.store.inspection.DeadLetterEntry;
import io.github.redisdelaybridge.store.inspection.InspectionStore;
import io.github.redisdelaybridge.store.inspection.ListPosition;
import io.github.redisdelaybridge.store.inspection.Listing;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.camel.Exchange;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Admin endpoints that act on dead letters: replay one, replay all of a reason, delete one. */
public final class DeadLetterCommands {

    private static final Logger LOG = LoggerFactory.getLogger(DeadLetterCommands.class);
    private static final String REPLAY_EXAMPLE = "{\"target\": \"kafka:orders.expired\", \"delayMs\": 0}";
    private static final String BULK_EXAMPLE = "{\"reason\": \"publish-failed\", \"limit\": 1000}";
    private static final int DEFAULT_BULK_LIMIT = 1_000;
    private static final int MAX_BULK_LIMIT = 10_000;

    private final InspectionStore store;
    private final DeadLetterReplay replay;
    private final DueTimeParser dueTimeParser;
    private final DispatchWakeup wakeup;
    private final long redisTimeoutMs;

    public DeadLetterCommands(InspectionStore store, DelayRequestValidator validator,
                              DueTimeParser dueTimeParser, DispatchWakeup wakeup, long redisTimeoutMs) {
        this.store = store;
        this.replay = new DeadLetterReplay(store, validator, redisTimeoutMs);
        this.dueTimeParser = dueTimeParser;
        this.wakeup = wakeup;
        this.redisTimeoutMs = redisTimeoutMs;
    }

    /** Camel bean method: {@code POST /api/dead-letters/{id}/replay} with an optional {@code {"target": ..., "delayMs" | "deliverAt": ...}}. */
    public ApiResponse replay(Exchange exchange) {
        String id = MessageQueries.messageId(exchange);
        JsonNode body = ApiRequests.jsonObject(ApiRequests.body(exchange),
                Set.of("target", ApiRequests.DELAY_MS, ApiRequests.DELIVER_AT), REPLAY_EXAMPLE);
        DeadLetterReplay.Replayed replayed = replay.replay(id, ApiRequests.text(body, "target"), ApiRequests.dueTime(body, dueTimeParser, false));
        LOG.info("replayed dead letter {} (HTTP): due at {} for {}", id, replayed.dueAt(), replayed.target());
        wakeup.wakeIfEarlierThan(replayed.dueAt());
        return ApiResponse.ok(replayedView(replayed));
    }

    /**
     * Camel bean method: {@code POST /api/dead-letters/replay} with {@code {"reason": ..., "target"?, "delayMs" | "deliverAt"?, "limit"?}}:
     * replays up to {@code limit} dead letters of that reason, oldest first; one that cannot be replayed is reported and skipped.
     */
    public ApiResponse replayByReason(Exchange exchange) {
        JsonNode body = ApiRequests.jsonObject(ApiRequests.body(exchange),
                Set.of("reason", "target", "limit", ApiRequests.DELAY_MS, ApiRequests.DELIVER_AT), BULK_EXAMPLE);
        String reason = DeadLetterQueries.reason(ApiRequests.text(body, "reason"));
        if (reason == null) {
            throw ApiException.badRequest("a bulk replay needs the reason of the dead letters to replay, e.g. " + BULK_EXAMPLE);
        }
        JsonNode limitNode = body.get("limit");
        if (limitNode != null && !limitNode.isIntegralNumber()) {
            throw ApiException.badRequest("limit must be a whole number from 1 to " + MAX_BULK_LIMIT);
        }
        int limit = ApiRequests.limit(limitNode == null ? null : limitNode.asText(), DEFAULT_BULK_LIMIT, MAX_BULK_LIMIT);
        String target = ApiRequests.text(body, "target");
        DueTime dueTime = ApiRequests.dueTime(body, dueTimeParser, false);

        int replayed = 0;
        List<Map<String, Object>> failed = new ArrayList<>();
        ListPosition after = null;
        boolean more = true;
        while (more && replayed + failed.size() < limit) {
            Listing<DeadLetterEntry> page = StoreAnswers.await(
                    store.listDeadLetters(after, reason, Math.min(100, limit - replayed - failed.size())), redisTimeoutMs);
            for (DeadLetterEntry entry : page.entries()) {
                try {
                    wakeup.wakeIfEarlierThan(replay.replay(entry.messageId(), target, dueTime).dueAt());
                    replayed++;
                } catch (ApiException refused) {
                    Map<String, Object> failure = new LinkedHashMap<>();
                    failure.put("id", entry.messageId());
                    failure.put("status", refused.status());
                    failure.put("error", refused.getMessage());
                    failed.add(failure);
                }
            }
            after = page.next();
            more = after != null;
        }
        LOG.info("replayed {} dead letters of reason {} (HTTP); {} could not be replayed", replayed, reason, failed.size());
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("reason", reason);
        view.put("replayed", replayed);
        view.put("failed", failed);
        view.put("more", more);
        return ApiResponse.ok(view);
    }

    /** Camel bean method: {@code DELETE /api/dead-letters/{id}}. */
    public ApiResponse delete(Exchange exchange) {
        String id = MessageQueries.messageId(exchange);
        if (!StoreAnswers.await(store.deleteDeadLetter(id), redisTimeoutMs)) {
            throw ApiException.notFound("no dead letter '" + ApiRequests.abbreviate(id) + "'");
        }
        LOG.info("deleted dead letter {} (HTTP)", id);
        return ApiResponse.noContent();
    }

    private static Map<String, Object> replayedView(DeadLetterReplay.Replayed replayed) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("id", replayed.id());
        view.put("state", "pending");
        view.put("target", replayed.target());
        view.put("dueAt", replayed.dueAt());
        return view;
    }
}
