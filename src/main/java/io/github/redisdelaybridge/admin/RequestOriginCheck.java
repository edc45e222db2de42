package io.github.redisdelaybridge.admin;

import java.util.List;
import java.util.Locale;

/**
 * Refuses (403) what a web page from elsewhere can make a browser send to the admin API or the console:
 * <ul>
 *   <li>a {@code Host} header that is not a name of this bridge ({@link AllowedHosts}): a DNS-rebinding page, whose
 *       own name now points at this machine, so that the browser treats the bridge as its own origin;</li>
 *   <li>an {@code Origin} other than the request's own (the scheme's host and port equal to the Host header's),
 *       {@code Origin: null} included: a cross-site request forgery, e.g. a text/plain POST, which needs no CORS
 *       preflight. Browsers send Origin with every cross-origin request other than a plain navigation, and with
 *       every POST, PUT, PATCH and DELETE; tools such as curl send none, and are not affected;</li>
 *   <li>{@code Sec-Fetch-Site: cross-site}, which current browsers add to every request a page of another site makes
 *       (navigations and image loads too, which carry no Origin).</li>
 * </ul>
 * The Host check comes first: the Origin is compared with a Host already known to name this bridge.
 */
final class RequestOriginCheck {

    private final AllowedHosts allowedHosts;

    RequestOriginCheck(List<String> allowedHosts) {
        this.allowedHosts = AllowedHosts.parse(allowedHosts);
    }

    /** Throws 403 unless the Host header names this bridge. */
    HostAndPort checkHost(String hostHeader) {
        HostAndPort host = HostAndPort.parse(hostHeader);
        if (!allowedHosts.allows(host)) {
            throw new ApiException(403, (hostHeader == null ? "the request has no Host header" : "the Host header '"
                    + ApiRequests.abbreviate(hostHeader) + "' is not a name of this bridge") + ": the admin API and the console answer"
                    + " only to localhost, 127.0.0.1 or [::1] and to the names listed in " + AllowedHosts.SETTING + " ("
                    + AllowedHosts.VARIABLE + "); add the name clients use to reach the bridge there (a guard against DNS rebinding)");
        }
        return host;
    }

    /** Throws 403 unless the Host header names this bridge and the request does not come from another origin's page. */
    void check(String hostHeader, String origin, String fetchSite) {
        HostAndPort host = checkHost(hostHeader);
        if (origin != null && !isSameOrigin(origin.strip(), host)) {
            throw new ApiException(403, "a request from a web page of another origin (Origin: " + ApiRequests.abbreviate(origin)
                    + ") is refused: the admin API answers only its own console and clients that send no Origin, such as curl");
        }
        if (fetchSite != null && fetchSite.strip().equalsIgnoreCase("cross-site")) {
            throw new ApiException(403, "a request from a web page of another site (Sec-Fetch-Site: cross-site) is refused: the admin"
                    + " API answers only its own console and clients such as curl");
        }
    }

    /** {@code http://host[:port]} or {@code https://host[:port]} whose host and port are the Host header's. */
    static boolean isSameOrigin(String origin, HostAndPort host) {
        String lower = origin.toLowerCase(Locale.ROOT);
        int defaultPort = lower.startsWith("http://") ? 80 : lower.startsWith("https://") ? 443 : 0;
        if (defaultPort == 0) {
            return false; // "null" (a sandboxed frame, a file: page, a redirect) and every other scheme
        }
        HostAndPort originHost = HostAndPort.parse(origin.substring(origin.indexOf("://") + 3));
        return originHost != null && originHost.host().equals(host.host()) && originHost.portOr(defaultPort) == host.portOr(defaultPort);
    }

    /** For the start-up log line. */
    String describe() {
        return "answers to Host " + allowedHosts;
    }
}
