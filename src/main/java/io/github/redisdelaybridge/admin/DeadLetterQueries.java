package io.github.redisdelaybridge.admin;

import io.github.redisdelaybridge.message.DeadLetterReason;
import io.github.redisdelaybridge.store.inspection.DeadLetterEntry;
import io.github.redisdelaybridge.store.inspection.InspectionStore;
import io.github.redisdelaybridge.store.inspection.Listing;
import io.github.redisdelaybridge.store.inspection.MessageFacts;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.camel.Exchange;

/** Read-only admin endpoints about the dead letters kept in Redis. */
public final class DeadLetterQueries {

    private final InspectionStore store;
    private final long redisTimeoutMs;

    public DeadLetterQueries(InspectionStore store, long redisTimeoutMs) {
        this.store = store;
        this.redisTimeoutMs = redisTimeoutMs;
    }

    /** Camel bean method: {@code GET /api/dead-letters?reason=&limit=&cursor=}, oldest first. */
    public ApiResponse list(Exchange exchange) {
        String reason = reason(ApiRequests.param(exchange, "reason"));
        int limit = ApiRequests.limit(ApiRequests.param(exchange, "limit"), ApiRequests.DEFAULT_LIMIT, ApiRequests.MAX_LIMIT);
        Listing<DeadLetterEntry> page = StoreAnswers.await(
                store.listDeadLetters(ApiRequests.cursor(ApiRequests.param(exchange, "cursor")), reason, limit), redisTimeoutMs);
        List<Map<String, Object>> deadLetters = page.entries().stream().map(DeadLetterQueries::listed).toList();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("deadLetters", deadLetters);
        body.put("nextCursor", ApiRequests.cursorOf(page.next()));
        return ApiResponse.ok(body);
    }

    /** Camel bean method: {@code GET /api/dead-letters/{id}[?body=true]}. */
    public ApiResponse describe(Exchange exchange) {
        String id = MessageQueries.messageId(exchange);
        boolean withBody = ApiRequests.flag(ApiRequests.param(exchange, "body"), "body");
        MessageFacts facts = StoreAnswers.await(store.inspect(id), redisTimeoutMs);
        MessageView view = MessageViews.ofDeadLetter(facts, withBody);
        if (view == null) {
            throw ApiException.notFound("no dead letter '" + ApiRequests.abbreviate(id) + "'");
        }
        return ApiResponse.ok(view);
    }

    /** A reason filter: null for all, else one of the stable reason codes. */
    static String reason(String code) {
        if (code == null || code.isEmpty()) {
            return null;
        }
        try {
            return DeadLetterReason.fromCode(code).code();
        } catch (IllegalArgumentException unknown) {
            throw ApiException.badRequest("reason '" + ApiRequests.abbreviate(code) + "' is not a dead-letter reason; one of: "
                    + String.join(", ", Arrays.stream(DeadLetterReason.values()).map(DeadLetterReason::code).toList()));
        }
    }

    private static Map<String, Object> listed(DeadLetterEntry entry) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("id", entry.messageId());
        view.put("deadAt", entry.deadAt());
        view.put("reason", entry.reason());
        view.put("attempts", entry.attempts());
        view.put("target", entry.target().isEmpty() ? null : entry.target());
        view.put("size", entry.size());
        return view;
    }
}
