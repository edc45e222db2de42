package io.github.redisdelaybridge.config;

import io.github.redisdelaybridge.admin.AdminAuthorizer;
import io.github.redisdelaybridge.admin.ApiResponses;
import io.github.redisdelaybridge.admin.ConsoleAssets;
import io.github.redisdelaybridge.admin.DeadLetterCommands;
import io.github.redisdelaybridge.admin.DeadLetterQueries;
import io.github.redisdelaybridge.admin.DueHistogramQuery;
import io.github.redisdelaybridge.admin.GroupCommands;
import io.github.redisdelaybridge.admin.GroupQueries;
import io.github.redisdelaybridge.admin.MessageCommands;
import io.github.redisdelaybridge.admin.MessageQueries;
import io.github.redisdelaybridge.admin.TargetParkingApi;
import io.github.redisdelaybridge.admin.OpenApiDocument;
import io.github.redisdelaybridge.admin.TargetParkingApi;
import io.github.redisdelaybridge.dispatch.Dispatcher;
import io.github.redisdelaybridge.dispatch.parking.ParkedTargets;
import io.github.redisdelaybridge.inbound.DueTimeParser;
import io.github.redisdelaybridge.metrics.BridgeMetrics;
import org.apache.camel.CamelContext;
import org.apache.camel.spi.Registry;

/**
 * The admin area: the beans the /api routes name (who may call, the queries on the main connection, the commands that
 * write on the ingest connection behind the durability barrier, the OpenAPI document, the console). Built after the
 * dispatcher and the inbound validator, which the commands use; nothing here holds a connection of its own, so nothing here
 * stops.
 */
final class AdminWiring {

    private AdminWiring() {
    }

    /** Binds the admin API's beans; returns who may call it, for the start-up line. */
    static AdminAuthorizer wire(CamelContext context, BridgeSettings settings, StoreWiring stores, InboundWiring inbound,
                                Dispatcher dispatcher, ParkedTargets parkedTargets, BridgeMetrics metrics) {
        Registry registry = context.getRegistry();
        long redisTimeoutMs = settings.redisTimeoutMs();
        DueTimeParser dueTimeParser = inbound.dueTimeParser();
        String serverHost = context.getPropertiesComponent().resolveProperty("camel.server.host").orElse("0.0.0.0");
        AdminAuthorizer adminAuthorizer = new AdminAuthorizer(settings.adminToken(), settings.adminReadToken(), serverHost,
                settings.adminAllowedHosts());
        registry.bind("adminAuthorizer", adminAuthorizer);
        registry.bind("apiResponses", new ApiResponses());
        registry.bind("messageQueries", new MessageQueries(stores.inspectionStore(), dueTimeParser, metrics, redisTimeoutMs));
        registry.bind("messageCommands", new MessageCommands(stores.ingestStore(), stores.barrier(), dueTimeParser, dispatcher, metrics,
                redisTimeoutMs));
        registry.bind("groupQueries", new GroupQueries(stores.inspectionStore(), stores.ingestStore(), redisTimeoutMs));
        registry.bind("groupCommands", new GroupCommands(stores.ingestStore(), stores.barrier(), dueTimeParser, dispatcher, metrics,
                redisTimeoutMs));
        registry.bind("deadLetterQueries", new DeadLetterQueries(stores.inspectionStore(), redisTimeoutMs));
        registry.bind("deadLetterCommands", new DeadLetterCommands(stores.inspectionStore(), inbound.validator(), dueTimeParser, dispatcher,
                redisTimeoutMs));
        registry.bind("targetParkingApi", new TargetParkingApi(parkedTargets, stores.parkingStore(), redisTimeoutMs));
        registry.bind("dueHistogramQuery", new DueHistogramQuery(stores.inspectionStore(), redisTimeoutMs));
        registry.bind("openApiDocument", new OpenApiDocument());
        registry.bind("consoleAssets", new ConsoleAssets());
        return adminAuthorizer;
    }
}
