package io.github.redisdelaybridge.admin;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import org.apache.camel.Exchange;
import org.apache.camel.Message;

/**
 * A file shipped inside the bridge's jar and served as it is (the console's assets, the OpenAPI description). Read once
 * at start, so a missing file stops the start instead of failing a request later.
 */
record StaticFile(String name, byte[] content, String contentType) {

    /**
     * Served with every static file: the browser runs only the bridge's own scripts and styles and talks only to the
     * bridge (no CDN, no inline script), never frames the page, and never guesses a type.
     */
    static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
            + " connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

    static StaticFile load(String resource, String contentType) {
        try (InputStream in = StaticFile.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + resource + " (the jar is incomplete)");
            }
            return new StaticFile(resource, in.readAllBytes(), contentType);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read resource " + resource, e);
        }
    }

    /** The answer: this file, with headers that keep the browser from caching a stale console after an upgrade. */
    void writeTo(Exchange exchange) {
        Message message = exchange.getMessage();
        message.removeHeaders("*");
        message.setHeader(Exchange.HTTP_RESPONSE_CODE, 200);
        message.setHeader(Exchange.CONTENT_TYPE, contentType);
        message.setHeader("Cache-Control", "no-cache");
        message.setHeader("X-Content-Type-Options", "nosniff");
        message.setHeader("Content-Security-Policy", CONTENT_SECURITY_POLICY);
        message.setHeader("Referrer-Policy", "no-referrer");
        message.setBody(content);
    }
}
