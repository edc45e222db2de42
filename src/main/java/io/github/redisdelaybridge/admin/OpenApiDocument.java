package io.github.redisdelaybridge.admin;

import org.apache.camel.Exchange;

/**
 * {@code GET /api/openapi.json}: the OpenAPI 3 description of the admin API ({@code openapi/admin-api.json} in the jar).
 * Open to every client, like health: it describes the routes, it holds no data. {@code OpenApiRoutesTest} holds it to
 * the routes the bridge really serves, both ways.
 */
public final class OpenApiDocument {

    static final String RESOURCE = "/openapi/admin-api.json";

    private final StaticFile document = StaticFile.load(RESOURCE, "application/json");

    /** Camel bean method. */
    public void write(Exchange exchange) {
        document.writeTo(exchange);
    }
}
