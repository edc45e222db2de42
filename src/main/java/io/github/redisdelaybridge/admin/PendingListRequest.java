package io.github.redisdelaybridge.admin;

import io.github.redisdelaybridge.inbound.DueTimeParser;
import io.github.redisdelaybridge.message.HeaderNames;
import io.github.redisdelaybridge.store.inspection.ListPosition;
import io.github.redisdelaybridge.store.inspection.PendingFilter;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.TreeSet;
import org.apache.camel.Exchange;

/**
 * What {@code GET /api/messages} asks for: which pending messages ({@link PendingFilter}), from where (the cursor of the
 * previous page), how many. Every parameter is checked here, and one it does not know is a 400 naming the known ones: a
 * misspelt filter would otherwise list the whole backlog as if it were the filtered part.
 */
record PendingListRequest(PendingFilter filter, ListPosition cursor, int limit) {

    static final String DUE_AFTER = "dueAfter";
    static final String DUE_BEFORE = "dueBefore";
    static final String TARGET = "target";
    static final String LIMIT = "limit";
    static final String CURSOR = "cursor";
    /** The parameters this listing takes, in the order the error names them. */
    static final Set<String> PARAMETERS = new TreeSet<>(Set.of(DUE_AFTER, DUE_BEFORE, TARGET, LIMIT, CURSOR));

    static PendingListRequest of(Exchange exchange, DueTimeParser dueTimeParser) {
        refuseUnknownParameters(exchange.getMessage().getHeader(Exchange.HTTP_QUERY, String.class));
        Long dueAfter = instant(exchange, DUE_AFTER, dueTimeParser);
        Long dueBefore = instant(exchange, DUE_BEFORE, dueTimeParser);
        if (dueAfter != null && dueBefore != null && dueAfter >= dueBefore) {
            throw ApiException.badRequest("dueAfter (" + dueAfter + ", inclusive) must be before dueBefore (" + dueBefore
                    + ", exclusive); the range is empty");
        }
        PendingFilter filter = new PendingFilter(dueAfter, dueBefore, target(ApiRequests.param(exchange, TARGET)));
        int limit = ApiRequests.limit(ApiRequests.param(exchange, LIMIT), ApiRequests.DEFAULT_LIMIT, ApiRequests.MAX_LIMIT);
        return new PendingListRequest(filter, ApiRequests.cursor(ApiRequests.param(exchange, CURSOR)), limit);
    }

    private static Long instant(Exchange exchange, String name, DueTimeParser dueTimeParser) {
        String text = ApiRequests.param(exchange, name);
        return text == null || text.isEmpty() ? null : ApiRequests.instant(text, name, dueTimeParser);
    }

    /** An exact target or a glob ({@code *} for any run of characters); empty: every target. */
    private static String target(String text) {
        if (text == null || text.isEmpty()) {
            return null;
        }
        if (text.getBytes(StandardCharsets.UTF_8).length > HeaderNames.MAX_TARGET_BYTES) {
            throw ApiException.badRequest("target must be at most " + HeaderNames.MAX_TARGET_BYTES + " bytes, as x-target is");
        }
        return text;
    }

    private static void refuseUnknownParameters(String query) {
        if (query == null || query.isEmpty()) {
            return;
        }
        for (String pair : query.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int equals = pair.indexOf('=');
            String name = URLDecoder.decode(equals < 0 ? pair : pair.substring(0, equals), StandardCharsets.UTF_8);
            if (!PARAMETERS.contains(name)) {
                throw ApiException.badRequest("unknown parameter '" + ApiRequests.abbreviate(name) + "'; this listing takes "
                        + String.join(", ", PARAMETERS));
            }
        }
    }
}
