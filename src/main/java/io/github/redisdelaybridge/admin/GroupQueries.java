package io.github.redisdelaybridge.admin;

import io.github.redisdelaybridge.store.inspection.GroupEntry;
import io.github.redisdelaybridge.store.inspection.InspectionStore;
import io.github.redisdelaybridge.store.inspection.Listing;
import io.github.redisdelaybridge.store.ingest.GroupOutcome;
import io.github.redisdelaybridge.store.ingest.IngestStore;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.camel.Exchange;

/**
 * {@code GET /api/groups/{group}}: how many messages of a group are pending and in flight, and one page of them in due order
 * (the cursor of {@code /api/messages}). The counts walk the whole group index in bounded batches (a dry-run cancel).
 */
public final class GroupQueries {

    private final InspectionStore inspection;
    private final IngestStore ingest;
    private final long redisTimeoutMs;

    public GroupQueries(InspectionStore inspection, IngestStore ingest, long redisTimeoutMs) {
        this.inspection = inspection;
        this.ingest = ingest;
        this.redisTimeoutMs = redisTimeoutMs;
    }

    /** Camel bean method: {@code GET /api/groups/{group}?limit=&cursor=}. */
    public ApiResponse describe(Exchange exchange) {
        String group = GroupNames.group(exchange);
        int limit = ApiRequests.limit(ApiRequests.param(exchange, "limit"), ApiRequests.DEFAULT_LIMIT, ApiRequests.MAX_LIMIT);
        GroupOutcome counts = StoreAnswers.await(ingest.cancelGroup(group, true), GroupCommands.answerMs(ingest, redisTimeoutMs));
        Listing<GroupEntry> page = StoreAnswers.await(
                inspection.listGroup(group, ApiRequests.cursor(ApiRequests.param(exchange, "cursor")), limit), redisTimeoutMs);
        List<Map<String, Object>> messages = page.entries().stream().map(GroupQueries::listed).toList();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("group", group);
        body.put("pending", counts.changed());
        body.put("inFlight", counts.inFlight());
        body.put("messages", messages);
        body.put("nextCursor", ApiRequests.cursorOf(page.next()));
        return ApiResponse.ok(body);
    }

    private static Map<String, Object> listed(GroupEntry entry) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("id", entry.messageId());
        view.put("state", entry.inFlight() ? "in-flight" : "pending");
        view.put("dueAt", entry.dueAt());
        return view;
    }
}
