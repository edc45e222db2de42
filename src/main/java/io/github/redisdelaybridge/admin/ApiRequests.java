package io.github.redisdelaybridge.admin;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.github.redisdelaybridge.inbound.DueTimeParser;
import io.github.redisdelaybridge.inbound.Rejection;
import io.github.redisdelaybridge.message.DueTime;
import io.github.redisdelaybridge.store.inspection.ListPosition;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collection;
import java.util.Iterator;
import java.util.Set;
import org.apache.camel.Exchange;

/**
 * Reads what an admin API request carries (path and query parameters, cursors, JSON bodies) and says
 * precisely what is wrong with it, as a 400.
 */
final class ApiRequests {

    static final int DEFAULT_LIMIT = 100;
    static final int MAX_LIMIT = 1_000;
    /** The two ways to give a due time in a JSON body. */
    static final String DELAY_MS = "delayMs";
    static final String DELIVER_AT = "deliverAt";

    private ApiRequests() {
    }

    /** A path or query parameter, or null when absent; a parameter given twice is a 400 (which one would count?). */
    static String param(Exchange exchange, String name) {
        Object value = exchange.getMessage().getHeader(name);
        if (value instanceof Collection<?> values) {
            throw ApiException.badRequest("parameter '" + name + "' is given " + values.size() + " times; give it once");
        }
        return value == null ? null : value.toString();
    }

    /** {@code limit}: 1 to {@code max}, default {@code defaultLimit}. */
    static int limit(String text, int defaultLimit, int max) {
        return (int) wholeNumber(text, "limit", defaultLimit, 1, max);
    }

    /** A whole number from {@code min} to {@code max} (absent: {@code defaultValue}); anything else is a 400 naming {@code name}. */
    static long wholeNumber(String text, String name, long defaultValue, long min, long max) {
        if (text == null) {
            return defaultValue;
        }
        try {
            long value = Long.parseLong(text.strip());
            if (value >= min && value <= max) {
                return value;
            }
        } catch (NumberFormatException notANumber) {
            // reported below
        }
        throw ApiException.badRequest(name + " must be a whole number from " + min + " to " + max + ", got '" + abbreviate(text) + "'");
    }

    /** {@code true} or {@code false} (absent: false). */
    static boolean flag(String text, String name) {
        if (text == null || text.equalsIgnoreCase("false")) {
            return false;
        }
        if (text.equalsIgnoreCase("true")) {
            return true;
        }
        throw ApiException.badRequest(name + " must be true or false, got '" + abbreviate(text) + "'");
    }

    /**
     * The opaque cursor the previous page returned as {@code nextCursor}; null: the first page. It is base64url of
     * {@code <score>/<slot>:} and the member's bytes (binary when packed); docs/storage-formats.md. The slot is part of
     * the position because two slots can hold equal packed members for different ids.
     */
    static ListPosition cursor(String text) {
        if (text == null || text.isEmpty()) {
            return null;
        }
        try {
            byte[] decoded = Base64.getUrlDecoder().decode(text);
            int colon = indexOf(decoded, (byte) ':');
            String head = new String(decoded, 0, colon, StandardCharsets.US_ASCII);
            byte[] member = Arrays.copyOfRange(decoded, colon + 1, decoded.length);
            int slash = head.indexOf('/');
            if (slash < 0) {
                throw new IllegalArgumentException("no slot");
            }
            int slot = Integer.parseInt(head.substring(slash + 1));
            if (slot < 0) {
                throw new IllegalArgumentException("negative slot");
            }
            return new ListPosition(Long.parseLong(head.substring(0, slash)), member, slot);
        } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
            throw ApiException.badRequest("cursor '" + abbreviate(text) + "' is not one this API returned as nextCursor");
        }
    }

    static String cursorOf(ListPosition position) {
        if (position == null) {
            return null;
        }
        byte[] head = (position.score() + "/" + position.slot() + ":").getBytes(StandardCharsets.US_ASCII);
        byte[] text = Arrays.copyOf(head, head.length + position.member().length);
        System.arraycopy(position.member(), 0, text, head.length, position.member().length);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(text);
    }

    private static int indexOf(byte[] bytes, byte wanted) {
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == wanted) {
                return i;
            }
        }
        throw new IllegalArgumentException("no '" + (char) wanted + "'");
    }

    /** An instant given as epoch milliseconds or ISO-8601, e.g. {@code dueBefore}. */
    static long instant(String text, String name, DueTimeParser parser) {
        try {
            return ((DueTime.At) parser.parseDeliverAt(text, name)).epochMs();
        } catch (Rejection rejection) {
            throw ApiException.badRequest(rejection.detail());
        }
    }

    /**
     * The request body as text. A form content type (curl's default for {@code -d}) is refused: the HTTP
     * server would already have parsed the JSON as form fields, mangling it.
     */
    static String body(Exchange exchange) {
        String contentType = exchange.getMessage().getHeader(Exchange.CONTENT_TYPE, String.class);
        if (contentType != null && (contentType.startsWith("application/x-www-form-urlencoded") || contentType.startsWith("multipart/"))) {
            throw ApiException.badRequest("send the JSON body with Content-Type: application/json (curl: -H 'Content-Type: application/json'),"
                    + " not " + abbreviate(contentType));
        }
        return exchange.getMessage().getBody(String.class);
    }

    /** The request body as a JSON object with only {@code allowed} fields; an empty body is an empty object. */
    static JsonNode jsonObject(String body, Set<String> allowed, String example) {
        if (body == null || body.isBlank()) {
            return ApiResponses.JSON.createObjectNode();
        }
        JsonNode node;
        try {
            node = ApiResponses.JSON.readTree(body);
        } catch (JsonProcessingException e) {
            throw ApiException.badRequest("body is not valid JSON (" + e.getOriginalMessage() + "); expected e.g. " + example);
        }
        if (node == null || !node.isObject()) {
            throw ApiException.badRequest("body must be a JSON object, e.g. " + example);
        }
        for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!allowed.contains(name)) {
                throw ApiException.badRequest("unknown field '" + abbreviate(name) + "'; allowed: " + String.join(", ", allowed.stream().sorted().toList()));
            }
        }
        return node;
    }

    /** {@code delayMs} or {@code deliverAt} of a JSON body; null when neither is there and it is optional. */
    static DueTime dueTime(JsonNode body, DueTimeParser parser, boolean required) {
        JsonNode delay = body.get(DELAY_MS);
        JsonNode deliverAt = body.get(DELIVER_AT);
        if (delay != null && deliverAt != null) {
            throw ApiException.badRequest("give delayMs or deliverAt, not both");
        }
        try {
            if (delay != null) {
                // the x-delay header's syntax: whole milliseconds (a JSON number or a string), or an ISO-8601 duration string
                if (!delay.isNumber() && !delay.isTextual()) {
                    throw ApiException.badRequest("delayMs must be a whole number of milliseconds or an ISO-8601 duration string such as"
                            + " \"PT30S\", got " + abbreviate(delay.toString()));
                }
                return parser.parseDelay(delay.asText(), DELAY_MS);
            }
            if (deliverAt != null) {
                if (!deliverAt.isTextual() && !deliverAt.isIntegralNumber()) {
                    throw ApiException.badRequest("deliverAt must be epoch milliseconds or an ISO-8601 instant like \"2026-12-01T10:00:00Z\", got "
                            + abbreviate(deliverAt.toString()));
                }
                return parser.parseDeliverAt(deliverAt.asText(), DELIVER_AT);
            }
        } catch (Rejection rejection) {
            throw ApiException.badRequest(rejection.detail());
        }
        if (required) {
            throw ApiException.badRequest("body must give delayMs (milliseconds from now) or deliverAt (epoch ms or ISO-8601)");
        }
        return null;
    }

    /** A text field of a JSON body, or null. */
    static String text(JsonNode body, String name) {
        JsonNode value = body.get(name);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isTextual()) {
            throw ApiException.badRequest(name + " must be a string, got " + abbreviate(value.toString()));
        }
        return value.asText();
    }

    static String abbreviate(String text) {
        return text.length() <= 64 ? text : text.substring(0, 61) + "...";
    }
}
