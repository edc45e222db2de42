package io.github.redisdelaybridge.admin;

import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.component.platform.http.vertx.VertxPlatformHttpConstants;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One line for every admin write (cancel, reschedule, replay, delete) that was let through, and one for every
 * request refused, with its caller: method, path, the kind of credential it showed (or why it was refused) and the
 * client's address.
 * Its own logger ({@code io.github.redisdelaybridge.admin.AdminAuditLog}), so it can be routed to an audit sink.
 * Never the token itself.
 */
public final class AdminAuditLog {

    private static final Logger LOG = LoggerFactory.getLogger(AdminAuditLog.class);

    /** The credential a request was let through with. */
    public enum Credential {
        WRITE_TOKEN("write-token"), READ_TOKEN("read-token"), NONE_LOOPBACK_SERVER("no-token-loopback-server");

        private final String text;

        Credential(String text) {
            this.text = text;
        }

        @Override
        public String toString() {
            return text;
        }
    }

    void write(Message request, String method, Credential credential) {
        LOG.info("admin write: {} {} by {} from {}", method, shownPath(request), credential, remoteAddress(request));
    }

    /** With the reason: which check refused it (the token, the Host, the Origin, the Content-Type). */
    void refused(Message request, String method, ApiException refusal) {
        LOG.warn("admin request refused ({}): {} {} from {}: {}", refusal.status(), method, shownPath(request), remoteAddress(request),
                refusal.getMessage());
    }

    private static String shownPath(Message request) {
        String uri = request.getHeader(Exchange.HTTP_URI, String.class);
        return uri != null ? uri : request.getHeader(Exchange.HTTP_PATH, "", String.class);
    }

    private static String remoteAddress(Message request) {
        Object remote = request.getHeader(VertxPlatformHttpConstants.REMOTE_ADDRESS);
        return remote instanceof io.vertx.core.net.SocketAddress address ? address.hostAddress() + ":" + address.port() : "(unknown)";
    }
}
