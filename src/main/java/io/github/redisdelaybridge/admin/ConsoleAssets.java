package io.github.redisdelaybridge.admin;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.camel.Exchange;

/**
 * The web console: a few static files from {@code console/} in the jar (vanilla HTML, CSS and JavaScript, no build step,
 * nothing fetched from elsewhere), served under {@code /console/}. The page itself holds no data: it calls the admin API
 * from the browser with the token the operator enters, so serving it needs no token.
 */
public final class ConsoleAssets {

    /**
     * Only these names are served: a path never reaches the class path lookup, so no other resource can be read. The
     * script is ES modules, one per panel, that {@code console.js} imports: a module added there must be listed here.
     */
    private static final List<String> FILES = List.of("index.html", "console.css", "pending.css",
            "console.js", "api.js", "dom.js", "format.js", "stats.js", "histogram.js", "lateness.js", "messages.js", "pending.js",
            "dead-letters.js", "targets.js");

    /** By extension; JavaScript as {@code text/javascript}, the type a browser requires of a module script. */
    private static final Map<String, String> CONTENT_TYPES = Map.of(
            "html", "text/html; charset=utf-8",
            "css", "text/css; charset=utf-8",
            "js", "text/javascript; charset=utf-8");

    private final Map<String, StaticFile> files;

    public ConsoleAssets() {
        Map<String, StaticFile> loaded = new HashMap<>();
        for (String name : FILES) {
            String contentType = CONTENT_TYPES.get(name.substring(name.lastIndexOf('.') + 1));
            loaded.put(name, StaticFile.load("/console/" + name, contentType));
        }
        this.files = Map.copyOf(loaded);
    }

    /** Camel bean method: {@code GET /console/} and {@code GET /console/{file}}; {@code GET /console} is redirected. */
    public void serve(Exchange exchange) {
        String name = ApiRequests.param(exchange, "file");
        if ((name == null || name.isEmpty()) && !requestPath(exchange).endsWith("/")) {
            redirectToDirectory(exchange);
            return;
        }
        StaticFile file = files.get(name == null || name.isEmpty() ? "index.html" : name);
        if (file == null) {
            throw ApiException.notFound("no console file '" + ApiRequests.abbreviate(name) + "'");
        }
        file.writeTo(exchange);
    }

    private static String requestPath(Exchange exchange) {
        String uri = exchange.getMessage().getHeader(Exchange.HTTP_URI, "", String.class);
        int query = uri.indexOf('?');
        return query < 0 ? uri : uri.substring(0, query);
    }

    /** {@code /console} to {@code /console/}, so that the page's relative links ({@code console.js}, {@code ../api}) resolve. */
    private static void redirectToDirectory(Exchange exchange) {
        exchange.getMessage().removeHeaders("*");
        exchange.getMessage().setHeader(Exchange.HTTP_RESPONSE_CODE, 308);
        exchange.getMessage().setHeader("Location", "/console/");
        exchange.getMessage().setBody(null);
    }
}
