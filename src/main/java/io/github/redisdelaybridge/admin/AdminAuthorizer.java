package io.github.redisdelaybridge.admin;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Locale;
import java.util.regex.Pattern;
import org.apache.camel.Exchange;
import org.apache.camel.component.platform.http.vertx.VertxPlatformHttpConstants;

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
 * Every write let through, and every request refused, is logged with its caller ({@link AdminAuditLog}).
 * The health and metrics endpoints are not affected.
 */
public final class AdminAuthorizer {

    private static final Pattern IPV4 = Pattern.compile("[0-9]{1,3}(\\.[0-9]{1,3}){3}");

    /** SHA-256 of the tokens: comparing digests takes the same time whatever the presented token's length. */
    private final byte[] writeTokenDigest;
    private final byte[] readTokenDigest;
    private final boolean serverOnLoopback;
    private final AdminAuditLog audit = new AdminAuditLog();

    /**
     * @param writeToken {@code bridge.admin.token}; empty: none
     * @param readToken  {@code bridge.admin.read-token}; empty: none
     * @param serverHost {@code camel.server.host}, the address the HTTP server listens on
     */
    public AdminAuthorizer(String writeToken, String readToken, String serverHost) {
        this.writeTokenDigest = writeToken == null || writeToken.isEmpty() ? null : sha256(writeToken);
        this.readTokenDigest = readToken == null || readToken.isEmpty() ? null : sha256(readToken);
        this.serverOnLoopback = isLoopbackLiteral(serverHost) || "localhost".equalsIgnoreCase(serverHost == null ? "" : serverHost.strip());
    }

    /** Camel bean method: throws 401 or 403 when the request may not be served; logs writes with their caller. */
    public void authorize(Exchange exchange) {
        Object remote = exchange.getMessage().getHeader(VertxPlatformHttpConstants.REMOTE_ADDRESS);
        String remoteAddress = remote instanceof io.vertx.core.net.SocketAddress address ? address.hostAddress() + ":" + address.port() : null;
        String method = exchange.getMessage().getHeader(Exchange.HTTP_METHOD, "GET", String.class).toUpperCase(Locale.ROOT);
        String path = exchange.getMessage().getHeader(Exchange.HTTP_PATH, "", String.class);
        String uri = exchange.getMessage().getHeader(Exchange.HTTP_URI, String.class);
        String shown = uri != null ? uri : path;
        AdminAuditLog.Credential credential;
        try {
            credential = check(exchange.getMessage().getHeader("Authorization", String.class), method);
        } catch (ApiException refused) {
            audit.refused(method, shown, refused.status(), remoteAddress);
            throw refused;
        }
        if (!method.equals("GET") && !method.equals("HEAD")) {
            audit.write(method, shown, credential, remoteAddress);
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
        if (writeTokenDigest == null && readTokenDigest == null) {
            return serverOnLoopback ? "open to this host only (no token set; the HTTP server listens on loopback)"
                    : "refusing every request: no token set (bridge.admin.token) and the HTTP server listens beyond loopback";
        }
        return "bearer token required" + (writeTokenDigest == null ? " (read-only token only: writes refused)"
                : readTokenDigest == null ? "" : " (read-only token for GET, write token for all)");
    }

    /** Only IP literals count; a name is never looked up. */
    static boolean isLoopbackLiteral(String host) {
        if (host == null) {
            return false;
        }
        String h = host.strip();
        if (h.startsWith("[") && h.endsWith("]")) {
            h = h.substring(1, h.length() - 1);
        }
        if (!(IPV4.matcher(h).matches() || h.contains(":"))) {
            return false;
        }
        try {
            return InetAddress.getByName(h).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
