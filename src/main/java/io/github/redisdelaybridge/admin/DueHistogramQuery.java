package io.github.redisdelaybridge.admin;

import io.github.redisdelaybridge.store.inspection.DueHistogram;
import io.github.redisdelaybridge.store.inspection.InspectionStore;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.camel.Exchange;

/**
 * {@code GET /api/stats/due-histogram?bucketMs=&buckets=}: how many pending messages fall due in each coming period
 * (by default each minute of the next hour), counted in Redis over all slots; the console draws it.
 */
public final class DueHistogramQuery {

    static final long DEFAULT_BUCKET_MS = 60_000;
    static final int DEFAULT_BUCKETS = 60;
    static final long MIN_BUCKET_MS = 1_000;
    static final long MAX_BUCKET_MS = 86_400_000;
    /** A day of minutes: each bucket is one ZCOUNT per slot, so the count bounds the script's work. */
    static final int MAX_BUCKETS = 1_440;

    private final InspectionStore store;
    private final long redisTimeoutMs;

    public DueHistogramQuery(InspectionStore store, long redisTimeoutMs) {
        this.store = store;
        this.redisTimeoutMs = redisTimeoutMs;
    }

    /** Camel bean method. */
    public ApiResponse histogram(Exchange exchange) {
        long bucketMs = ApiRequests.wholeNumber(ApiRequests.param(exchange, "bucketMs"), "bucketMs", DEFAULT_BUCKET_MS, MIN_BUCKET_MS, MAX_BUCKET_MS);
        int buckets = (int) ApiRequests.wholeNumber(ApiRequests.param(exchange, "buckets"), "buckets", DEFAULT_BUCKETS, 1, MAX_BUCKETS);
        DueHistogram histogram = StoreAnswers.await(store.dueHistogram(bucketMs, buckets), redisTimeoutMs);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("from", histogram.from());
        body.put("bucketMs", bucketMs);
        body.put("overdue", histogram.overdue());
        body.put("counts", Arrays.stream(histogram.counts()).boxed().toList());
        body.put("later", histogram.later());
        return ApiResponse.ok(body);
    }
}
