package io.github.redisdelaybridge.admin;

import java.util.ArrayList;
import java.util.List;

/**
 * The names a request to the admin API or the console may carry as its {@code Host} header: the loopback names
 * ({@code localhost}, {@code 127.0.0.1} and the rest of 127.0.0.0/8, {@code [::1]}, any port) and the entries of
 * {@code bridge.admin.allowed-hosts}. A browser sends the name it resolved as Host, so a page whose attacker-controlled
 * name was re-pointed at this machine (DNS rebinding) sends the attacker's name, and is refused here.
 * <p>
 * An entry is {@code name} (any port), {@code name:port} (that port only), or {@code *.domain} (any name ending in
 * {@code .domain}, e.g. every pod name under a headless Service); IP literals are entries like names. Names are
 * compared without regard to case and never looked up.
 */
final class AllowedHosts {

    static final String SETTING = "bridge.admin.allowed-hosts";
    static final String VARIABLE = "BRIDGE_ADMIN_ALLOWED_HOSTS";

    private final List<HostAndPort> exact;
    private final List<HostAndPort> suffixes;

    private AllowedHosts(List<HostAndPort> exact, List<HostAndPort> suffixes) {
        this.exact = exact;
        this.suffixes = suffixes;
    }

    /** Parses the entries of the setting; throws IllegalArgumentException naming an entry that is not a host name. */
    static AllowedHosts parse(List<String> entries) {
        List<HostAndPort> exact = new ArrayList<>();
        List<HostAndPort> suffixes = new ArrayList<>();
        for (String entry : entries == null ? List.<String>of() : entries) {
            String text = entry.strip();
            boolean wildcard = text.startsWith("*.");
            HostAndPort parsed = HostAndPort.parse(wildcard ? text.substring(2) : text);
            if (parsed == null || text.contains("/")) {
                throw new IllegalArgumentException("setting " + SETTING + ": '" + text + "' is not a host name, host:port or *.domain"
                        + " (no scheme, no path)");
            }
            (wildcard ? suffixes : exact).add(parsed);
        }
        return new AllowedHosts(List.copyOf(exact), List.copyOf(suffixes));
    }

    /** Whether {@code host}, a Host header's value, names this bridge. */
    boolean allows(HostAndPort host) {
        if (host == null) {
            return false;
        }
        if (host.host().equals("localhost") || HostAndPort.isLoopbackLiteral(host.host())) {
            return true;
        }
        for (HostAndPort entry : exact) {
            if (entry.host().equals(host.host()) && portMatches(entry, host)) {
                return true;
            }
        }
        for (HostAndPort entry : suffixes) {
            if (host.host().endsWith("." + entry.host()) && portMatches(entry, host)) {
                return true;
            }
        }
        return false;
    }

    private static boolean portMatches(HostAndPort entry, HostAndPort host) {
        return !entry.hasPort() || entry.port() == host.port();
    }

    /** For the start-up log line and refusals: the names let in besides loopback. */
    @Override
    public String toString() {
        List<String> all = new ArrayList<>();
        exact.forEach(entry -> all.add(entry.toString()));
        suffixes.forEach(entry -> all.add("*." + entry));
        return all.isEmpty() ? "loopback names only" : "loopback names and " + String.join(", ", all);
    }
}
