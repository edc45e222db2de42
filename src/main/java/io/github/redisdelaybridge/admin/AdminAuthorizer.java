package io.github.redisdelaybridge.admin;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.regex.Pattern;
import org.apache.camel.Exchange;
import org.apache.camel.component.platform.http.vertx.VertxPlatformHttpConstants;

/**
 * The first step of every admin API route. With {@code bridge.admin.token} set, every request (reads
 * too: headers can carry personal data) must send {@code Authorization: Bearer <token>}; the token is
 * compared in constant time. Without a token, only clients on loopback are served, so an unprotected
 * API is never reachable from the network; the health and metrics endpoints are not affected.
 */
public final class AdminAuthorizer {

    private static final Pattern IPV4 = Pattern.compile("[0-9]{1,3}(\\.[0-9]{1,3}){3}");

    /** SHA-256 of the token: comparing digests takes the same time whatever the presented token's length. */
    private final byte[] tokenDigest;

    /** {@code token} empty: loopback clients only. */
    public AdminAuthorizer(String token) {
        this.tokenDigest = token == null || token.isEmpty() ? null : sha256(token);
    }

    /** Camel bean method: throws 401 or 403 when the request may not be served. */
    public void authorize(Exchange exchange) {
        Object remote = exchange.getMessage().getHeader(VertxPlatformHttpConstants.REMOTE_ADDRESS);
        String remoteHost = remote instanceof io.vertx.core.net.SocketAddress address ? address.hostAddress() : null;
        check(exchange.getMessage().getHeader("Authorization", String.class), remoteHost);
    }

    /** @param remoteHost the client's IP address as text, or null when unknown (then only a token can authorize) */
    void check(String authorization, String remoteHost) {
        if (tokenDigest == null) {
            if (!isLoopback(remoteHost)) {
                throw new ApiException(403, "the admin API serves only loopback clients while bridge.admin.token is not set");
            }
            return;
        }
        if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            throw new ApiException(401, "this request needs the header Authorization: Bearer <bridge.admin.token>");
        }
        if (!MessageDigest.isEqual(sha256(authorization.substring(7).strip()), tokenDigest)) {
            throw new ApiException(401, "the bearer token is not the one configured in bridge.admin.token");
        }
    }

    /** Only IP literals count (the server reports those); a name is never looked up. */
    private static boolean isLoopback(String host) {
        if (host == null || !(IPV4.matcher(host).matches() || host.contains(":"))) {
            return false;
        }
        try {
            return InetAddress.getByName(host).isLoopbackAddress();
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
