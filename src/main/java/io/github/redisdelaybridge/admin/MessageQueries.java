package io.github.redisdelaybridge.admin;

import io.github.redisdelaybridge.inbound.DueTimeParser;
import io.github.redisdelaybridge.metrics.BridgeMetrics;
import io.github.redisdelaybridge.store.inspection.InspectionStore;
import io.github.redisdelaybridge.store.inspection.Listing;
import io.github.redisdelaybridge.store.inspection.MessageFacts;
import io.github.redisdelaybridge.store.inspection.MessageState;
import io.github.redisdelaybridge.store.inspection.PendingEntry;
import io.github.redisdelaybridge.store.inspection.PendingTotals;
import io.github.redisdelaybridge.store.inspection.StoreStats;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.camel.Exchange;

/** Read-only admin endpoints about messages: one message, a page of pending messages, and the counts. */
public final class MessageQueries {

    static final int MAX_ID_BYTES = 512;

    private final InspectionStore store;
    private final DueTimeParser dueTimeParser;
    private final BridgeMetrics metrics;
    private final long redisTimeoutMs;

    public MessageQueries(InspectionStore store, DueTimeParser dueTimeParser, BridgeMetrics metrics, long redisTimeoutMs) {
        this.store = store;
        this.dueTimeParser = dueTimeParser;
        this.metrics = metrics;
        this.redisTimeoutMs = redisTimeoutMs;
    }

    /** Camel bean method: {@code GET /api/messages/{id}[?body=true]}. */
    public ApiResponse describe(Exchange exchange) {
        String id = messageId(exchange);
        boolean withBody = ApiRequests.flag(ApiRequests.param(exchange, "body"), "body");
        MessageFacts facts = StoreAnswers.await(store.inspect(id), redisTimeoutMs);
        if (facts.state() == MessageState.UNKNOWN) {
            throw ApiException.notFound("no message '" + ApiRequests.abbreviate(id) + "' is pending, in flight, dead, or was delivered"
                    + " or cancelled recently (within the dedupe and cancel windows)");
        }
        return ApiResponse.ok(MessageViews.ofMessage(facts, withBody));
    }

    /**
     * Camel bean method: {@code GET /api/messages?dueAfter=&dueBefore=&target=&group=&limit=&cursor=}, a page of pending messages
     * in due order, and how many the filter covers ({@link PendingListRequest}).
     */
    public ApiResponse list(Exchange exchange) {
        PendingListRequest request = PendingListRequest.of(exchange, dueTimeParser);
        CompletableFuture<Listing<PendingEntry>> listing = store.listPending(request.cursor(), request.filter(), request.limit());
        CompletableFuture<PendingTotals> counting = store.countPending(request.filter());
        Listing<PendingEntry> page = StoreAnswers.await(listing, redisTimeoutMs);
        PendingTotals totals = StoreAnswers.await(counting, redisTimeoutMs);
        Map<String, Object> counted = new LinkedHashMap<>();
        counted.put("inDueRange", totals.inDueRange());
        counted.put("matching", totals.matching());
        counted.put("exact", totals.exact());
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("messages", page.entries().stream().map(MessageQueries::listed).toList());
        body.put("nextCursor", ApiRequests.cursorOf(page.next()));
        body.put("totals", counted);
        return ApiResponse.ok(body);
    }

    /** Camel bean method: {@code GET /api/stats}. */
    public ApiResponse stats() {
        StoreStats stats = StoreAnswers.await(store.stats(), redisTimeoutMs);
        Map<String, Object> counts = new LinkedHashMap<>();
        counts.put("pending", stats.pending());
        counts.put("parked", stats.parked());
        counts.put("inFlight", stats.inFlight());
        counts.put("delivered", stats.delivered());
        counts.put("cancelled", stats.cancelled());
        counts.put("dead", stats.dead());
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("redisTime", stats.redisNow());
        body.put("counts", counts);
        body.put("nextDueAt", stats.nextDueAt() < 0 ? null : stats.nextDueAt());
        body.put("oldestOverdueMs", stats.oldestOverdueMs());
        body.put("thisInstance", metrics.snapshot());
        return ApiResponse.ok(body);
    }

    private static Map<String, Object> listed(PendingEntry entry) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("id", entry.messageId());
        view.put("dueAt", entry.dueAt());
        view.put("attempts", entry.attempts());
        view.put("size", entry.size());
        view.put("target", entry.target());
        view.put("group", entry.group());
        return view;
    }

    /** The {id} of the path: 1 to 512 bytes, like x-message-id. */
    static String messageId(Exchange exchange) {
        String id = ApiRequests.param(exchange, "id");
        if (id == null || id.isEmpty() || id.getBytes(StandardCharsets.UTF_8).length > MAX_ID_BYTES) {
            throw ApiException.badRequest("a message id is 1 to " + MAX_ID_BYTES + " bytes of UTF-8 text");
        }
        return id;
    }
}
