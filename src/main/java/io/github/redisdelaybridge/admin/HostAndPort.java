package io.github.redisdelaybridge.admin;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A host name or IP literal with an optional port, as a {@code Host} header, the authority of an {@code Origin} or an
 * entry of {@code bridge.admin.allowed-hosts} carries it: {@code name}, {@code name:8080}, {@code 127.0.0.1:8080},
 * {@code [::1]:8080}. The host is kept in lower case without a trailing dot (DNS names are case-insensitive, and
 * {@code name.} is the same name as {@code name}); an IPv6 literal keeps its brackets.
 *
 * @param host the host, never empty
 * @param port the port, or {@link #NO_PORT} when none was given
 */
record HostAndPort(String host, int port) {

    static final int NO_PORT = -1;

    /** A DNS name, an IPv4 literal, or an IPv6 literal in brackets; then an optional port. */
    private static final Pattern FORM = Pattern.compile("([a-z0-9_]([a-z0-9_.-]*[a-z0-9_])?\\.?|\\[[0-9a-f:.]+\\])(?::([0-9]{1,5}))?");

    private static final Pattern IPV4 = Pattern.compile("[0-9]{1,3}(\\.[0-9]{1,3}){3}");

    /** Parses {@code text}; null when it is not of that form (or has a port above 65535). */
    static HostAndPort parse(String text) {
        if (text == null) {
            return null;
        }
        Matcher matcher = FORM.matcher(text.strip().toLowerCase(Locale.ROOT));
        if (!matcher.matches()) {
            return null;
        }
        String host = matcher.group(1);
        int port = matcher.group(3) == null ? NO_PORT : Integer.parseInt(matcher.group(3));
        if (port > 65_535) {
            return null;
        }
        return new HostAndPort(host.endsWith(".") ? host.substring(0, host.length() - 1) : host, port);
    }

    /** Whether {@code host} is a loopback IP literal (127.0.0.0/8, ::1; IPv6 with or without brackets); a name is never looked up. */
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

    boolean hasPort() {
        return port != NO_PORT;
    }

    /** The port, or {@code defaultPort} when none was given. */
    int portOr(int defaultPort) {
        return hasPort() ? port : defaultPort;
    }

    @Override
    public String toString() {
        return hasPort() ? host + ":" + port : host;
    }
}
