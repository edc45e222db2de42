package io.github.redisdelaybridge.admin;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.component.platform.http.vertx.HttpMessage;

/**
 * The first step of every admin API route.
 * <ul>
 *   <li>With a token configured ({@code bridge.admin.token}, reads and writes; {@code bridge.admin.read-token},
 *       GET only), every request must send {@code Authorization: Bearer <token>} (reads too: headers can carry
 *       personal data); tokens are compared in constant time. A write needs the write token: with only a read token
 *       configured, writes are refused.</li>
 *   <li>Without any token, the API answers only when the HTTP server itself listens on loopback
 *       ({@code camel.server.host} 127.0.0.1 or ::1), so only processes on this host can reach it. The client's
 *       address proves nothing (a local proxy or a sidecar forwarding the network's requests connects from
 *       127.0.0.1), so it is never what lets a request in.</li>
 * </ul>
 * Before the token, every request must come from no other web page's origin and name this bridge in its Host header
 * ({@link RequestOriginCheck}, 403); after it, a write with a body must be JSON ({@link WriteContentTypeCheck}, 415):
 * a page from elsewhere can make a browser send neither. The console's pages and the OpenAPI description get the
 * Host check alone.
 * Every write let through, and every request refused, is logged with its caller ({@link AdminAuditLog}).
 * The health and metrics endpoints are not affected.
 */
public final class AdminAuthorizer {

    /** SHA-256 of the tokens: comparing digests takes the same time whatever the presented token's length. */
    private final byte[] writeTokenDigest;
    private final byte[] readTokenDigest;
    private final boolean serverOnLoopback;
    private final RequestOriginCheck originCheck;
    private final AdminAuditLog audit = new AdminAuditLog();

    /**
     * @param writeToken   {@code bridge.admin.token}; empty: none
     * @param readToken    {@code bridge.admin.read-token}; empty: none
     * @param serverHost   {@code camel.server.host}, the address the HTTP server listens on
     * @param allowedHosts {@code bridge.admin.allowed-hosts}: Host header values let in besides the loopback names
     * @throws IllegalArgumentException when an allowed-hosts entry is not a host name
     */
    public AdminAuthorizer(String writeToken, String readToken, String serverHost, List<String> allowedHosts) {
        this.originCheck = new RequestOriginCheck(allowedHosts);
        this.writeTokenDigest = writeToken == null || writeToken.isEmpty() ? null : sha256(writeToken);
        this.readTokenDigest = readToken == null || readToken.isEmpty() ? null : sha256(readToken);
        this.serverOnLoopback = HostAndPort.isLoopbackLiteral(serverHost) || "localhost".equalsIgnoreCase(serverHost == null ? "" : serverHost.strip());
    }

    /** {@code bridge.admin.allowed-hosts}, checked: throws IllegalArgumentException naming an entry that is not a host name. */
    public static List<String> allowedHosts(List<String> entries) {
        AllowedHosts.parse(entries);
        return entries;
    }

    /** Camel bean method for the admin API: throws 401, 403 or 415 when the request may not be served; logs writes with their caller. */
    public void authorize(Exchange exchange) {
        Message message = exchange.getMessage();
        String method = message.getHeader(Exchange.HTTP_METHOD, "GET", String.class).toUpperCase(Locale.ROOT);
        AdminAuditLog.Credential credential = auditingRefusals(exchange, method, () -> {
            originCheck.check(requestHost(message), message.getHeader("Origin", String.class), message.getHeader("Sec-Fetch-Site", String.class));
            AdminAuditLog.Credential shown = check(message.getHeader("Authorization", String.class), method);
            WriteContentTypeCheck.check(method, message.getHeader(Exchange.CONTENT_TYPE, String.class), hasBody(message));
            return shown;
        });
        if (!method.equals("GET") && !method.equals("HEAD")) {
            audit.write(message, method, credential);
        }
    }

    /**
     * Camel bean method for the console's pages and the API's OpenAPI description: throws 403 unless the Host header
     * names this bridge. They hold no data and change nothing, so they need no token, and another site may link to
     * them (a navigation carries Sec-Fetch-Site: cross-site); a DNS-rebinding page must not load them as its own, though.
     */
    public void authorizePage(Exchange exchange) {
        Message message = exchange.getMessage();
        String method = message.getHeader(Exchange.HTTP_METHOD, "GET", String.class).toUpperCase(Locale.ROOT);
        auditingRefusals(exchange, method, () -> originCheck.checkHost(requestHost(message)));
    }

    /** The Host header, or HTTP/2's :authority, which takes its place (java.net.http clients, for one, upgrade to HTTP/2). */
    private static String requestHost(Message message) {
        return message instanceof HttpMessage http ? http.getRequest().host() : message.getHeader("Host", String.class);
    }

    /** Bytes arrived, or were announced (HTTP/2 may send a body with neither Content-Length nor Transfer-Encoding). */
    private static boolean hasBody(Message message) {
        byte[] body = message.getBody(byte[].class);
        String length = message.getHeader("Content-Length", String.class);
        return (body != null && body.length > 0) || message.getHeader("Transfer-Encoding") != null
                || (length != null && !length.strip().equals("0"));
    }

    private <T> T auditingRefusals(Exchange exchange, String method, Supplier<T> checks) {
        try {
            return checks.get();
        } catch (ApiException refused) {
            audit.refused(exchange.getMessage(), method, refused);
            throw refused;
        }
    }

    /** What a request with this Authorization header and method is let in with; throws 401 or 403 otherwise. */
    AdminAuditLog.Credential check(String authorization, String method) {
        boolean read = method.equals("GET") || method.equals("HEAD");
        if (writeTokenDigest == null && readTokenDigest == null) {
            if (!serverOnLoopback) {
                throw new ApiException(403, "the admin API needs bridge.admin.token (or bridge.admin.read-token for reads) while the"
                        + " HTTP server listens beyond loopback (camel.server.host)");
            }
            return AdminAuditLog.Credential.NONE_LOOPBACK_SERVER;
        }
        if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            throw new ApiException(401, "this request needs the header Authorization: Bearer <token> (bridge.admin.token"
                    + (read ? " or bridge.admin.read-token" : "") + ")");
        }
        byte[] presented = sha256(authorization.substring(7).strip());
        if (writeTokenDigest != null && MessageDigest.isEqual(presented, writeTokenDigest)) {
            return AdminAuditLog.Credential.WRITE_TOKEN;
        }
        if (readTokenDigest != null && MessageDigest.isEqual(presented, readTokenDigest)) {
            if (read) {
                return AdminAuditLog.Credential.READ_TOKEN;
            }
            throw new ApiException(403, "the read-only token (bridge.admin.read-token) cannot change anything: use bridge.admin.token");
        }
        throw new ApiException(401, "the bearer token is not one configured in bridge.admin.token or bridge.admin.read-token");
    }

    /** For the start-up log line. */
    public String describe() {
        return describeCredentials() + "; " + originCheck.describe();
    }

    private String describeCredentials() {
        if (writeTokenDigest == null && readTokenDigest == null) {
            return serverOnLoopback ? "open to this host only (no token set; the HTTP server listens on loopback)"
                    : "refusing every request: no token set (bridge.admin.token) and the HTTP server listens beyond loopback";
        }
        return "bearer token required" + (writeTokenDigest == null ? " (read-only token only: writes refused)"
                : readTokenDigest == null ? "" : " (read-only token for GET, write token for all)");
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
