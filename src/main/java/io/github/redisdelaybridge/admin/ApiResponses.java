package io.github.redisdelaybridge.admin;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last step of every admin API route: writes the answer as JSON with its status. The request's
 * headers are dropped first, so nothing a client sent (its Authorization header, say) is echoed back.
 */
public final class ApiResponses {

    private static final Logger LOG = LoggerFactory.getLogger(ApiResponses.class);

    /** Nulls are written (an explicit "nextCursor": null ends a listing); views leave out what does not apply themselves. */
    static final ObjectMapper JSON = new ObjectMapper();

    /** Camel bean method: the answer of the route's bean. */
    public void write(ApiResponse response, Exchange exchange) {
        Message message = exchange.getMessage();
        message.removeHeaders("*");
        message.setHeader(Exchange.HTTP_RESPONSE_CODE, response.status());
        if (response.body() == null) {
            message.setBody(null);
            return;
        }
        message.setHeader(Exchange.CONTENT_TYPE, "application/json");
        try {
            message.setBody(JSON.writeValueAsBytes(response.body()));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + response.body().getClass().getSimpleName() + " as JSON", e);
        }
    }

    /** Camel bean method (the admin API's exception handler): an {@link ApiException}, or a failure the client cannot fix. */
    public void writeError(Exchange exchange) {
        Exception failure = exchange.getProperty(Exchange.EXCEPTION_CAUGHT, Exception.class);
        ApiException error = failure instanceof ApiException api ? api : unexpected(exchange, failure);
        write(new ApiResponse(error.status(), Map.of("error", error.getMessage())), exchange);
        if (error.status() == 401) {
            exchange.getMessage().setHeader("WWW-Authenticate", "Bearer realm=\"redis-delay-bridge\"");
        }
    }

    private static ApiException unexpected(Exchange exchange, Exception failure) {
        LOG.error("admin API request {} {} failed", exchange.getMessage().getHeader(Exchange.HTTP_METHOD),
                exchange.getMessage().getHeader(Exchange.HTTP_PATH), failure);
        return new ApiException(500, "internal error: " + (failure == null ? "unknown" : failure.getClass().getSimpleName()
                + ": " + failure.getMessage()));
    }
}
