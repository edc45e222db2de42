package io.github.redisdelaybridge.admin;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One line for every admin write (cancel, reschedule, replay, delete) that was let through, and one for every
 * request refused, with its caller: method, path, the kind of credential it showed and the client's address.
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

    void write(String method, String path, Credential credential, String remoteAddress) {
        LOG.info("admin write: {} {} by {} from {}", method, path, credential, remoteAddress == null ? "(unknown)" : remoteAddress);
    }

    void refused(String method, String path, int status, String remoteAddress) {
        LOG.warn("admin request refused ({}): {} {} from {}", status, method, path, remoteAddress == null ? "(unknown)" : remoteAddress);
    }
}
