package io.github.redisdelaybridge.admin;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;

/**
 * One message id as {@code GET /api/messages/{id}} and {@code GET /api/dead-letters/{id}} show it. Fields
 * that do not apply to the state are left out; times are epoch milliseconds on Redis's clock.
 *
 * @param size    bytes it takes in Redis (its envelope, or its dead-letter record)
 * @param key     the record key as text, or {@code keyBase64} when it is not UTF-8
 * @param body    the body as text, or {@code bodyBase64} when it is not UTF-8; only when asked ({@code ?body=true})
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record MessageView(
        String id,
        String state,
        Long dueAt,
        Long leaseUntil,
        Long deliveredAt,
        Long cancelledAt,
        Long deadAt,
        String reason,
        String detail,
        Integer attempts,
        String target,
        String origin,
        Long size,
        String key,
        String keyBase64,
        List<HeaderView> headers,
        Map<String, String> properties,
        Boolean tombstone,
        String body,
        String bodyBase64,
        String unreadable) {

    /**
     * One header; {@code value} as text, or {@code valueBase64} when it is not UTF-8, or neither when it
     * has no value.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record HeaderView(String name, String value, String valueBase64) {
    }

    /** Fills a view field by field, since which fields apply depends on the state. */
    static final class Builder {
        String id;
        String state;
        Long dueAt;
        Long leaseUntil;
        Long deliveredAt;
        Long cancelledAt;
        Long deadAt;
        String reason;
        String detail;
        Integer attempts;
        String target;
        String origin;
        Long size;
        String key;
        String keyBase64;
        List<HeaderView> headers;
        Map<String, String> properties;
        Boolean tombstone;
        String body;
        String bodyBase64;
        String unreadable;

        MessageView build() {
            return new MessageView(id, state, dueAt, leaseUntil, deliveredAt, cancelledAt, deadAt, reason, detail, attempts, target,
                    origin, size, key, keyBase64, headers, properties, tombstone, body, bodyBase64, unreadable);
        }
    }
}
