package io.github.redisdelaybridge.admin;

import java.util.Locale;
import java.util.Set;

/**
 * The rule for the body of a write (POST, PUT, PATCH, DELETE): a write that carries a body, or any Content-Type, must
 * say {@code Content-Type: application/json} (parameters such as {@code ; charset=utf-8} allowed); anything else is
 * refused with 415. A write without a body and without a Content-Type (cancel, delete, replay one dead letter as it
 * is) passes: it is judged by its Host and Origin alone ({@link RequestOriginCheck}).
 * <p>
 * Why: an HTML form or a fetch from a page of another site can send text/plain, application/x-www-form-urlencoded or
 * multipart/form-data without asking the server first (no CORS preflight); application/json cannot be sent across
 * origins without a preflight, which this server never answers with permission.
 */
final class WriteContentTypeCheck {

    private static final Set<String> WRITES = Set.of("POST", "PUT", "PATCH", "DELETE");

    private WriteContentTypeCheck() {
    }

    /**
     * Throws 415 unless a write's Content-Type is application/json, or it has neither a Content-Type nor a body.
     *
     * @param method      the request method, upper case
     * @param contentType the Content-Type header; null: none
     * @param hasBody     whether the request carries a body (or announces one)
     */
    static void check(String method, String contentType, boolean hasBody) {
        if (!WRITES.contains(method)) {
            return;
        }
        if (contentType == null) {
            if (hasBody) {
                throw refusal("a body without a Content-Type");
            }
            return;
        }
        String mediaType = contentType.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
        if (!mediaType.equals("application/json")) {
            throw refusal("Content-Type " + ApiRequests.abbreviate(contentType.strip()));
        }
    }

    private static ApiException refusal(String what) {
        return new ApiException(415, "a write with a body must send it as JSON with Content-Type: application/json"
                + " (curl: -H 'Content-Type: application/json'), not " + what);
    }
}
