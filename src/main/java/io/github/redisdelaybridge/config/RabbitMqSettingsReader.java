package io.github.redisdelaybridge.config;

/** Reads the {@code bridge.rabbitmq.*} settings. */
final class RabbitMqSettingsReader {

    private RabbitMqSettingsReader() {
    }

    private static TlsStores rabbitMqTls(SettingsReader r) {
        boolean enabled = !r.optional("bridge.rabbitmq.tls.enabled").isEmpty() && r.booleanValue("bridge.rabbitmq.tls.enabled");
        TlsStores stores = new TlsStores("bridge.rabbitmq.tls.", r.path("bridge.rabbitmq.tls.truststore"),
                r.secret("bridge.rabbitmq.tls.truststore-password"), r.path("bridge.rabbitmq.tls.keystore"),
                r.secret("bridge.rabbitmq.tls.keystore-password"));
        ConnectionSecurityCheck.requireTlsForRabbitMqStores(enabled, stores);
        return enabled ? stores : null;
    }

    static RabbitMqSettings rabbitMqSettings(SettingsReader r) {
        RabbitMqSettings rabbitMq = new RabbitMqSettings(
                r.booleanValue("bridge.rabbitmq.enabled"),
                r.text("bridge.rabbitmq.host"),
                r.intValue("bridge.rabbitmq.port"),
                r.text("bridge.rabbitmq.username"),
                r.requiredSecret("bridge.rabbitmq.password"),
                r.text("bridge.rabbitmq.virtual-host"),
                rabbitMqTls(r),
                r.optional("bridge.rabbitmq.tls.verify-hostname").isEmpty() || r.booleanValue("bridge.rabbitmq.tls.verify-hostname"),
                r.list("bridge.rabbitmq.inbound-queues"),
                r.map("bridge.rabbitmq.inbound-exchanges"),
                r.map("bridge.rabbitmq.delayed-exchanges"),
                r.map("bridge.rabbitmq.default-targets"),
                r.intValue("bridge.rabbitmq.prefetch"),
                r.intValue("bridge.rabbitmq.consumers-per-queue"),
                r.intValue("bridge.rabbitmq.inbound-batch-size"),
                r.longValue("bridge.rabbitmq.inbound-linger-ms"),
                r.intValue("bridge.rabbitmq.store-attempts"),
                r.text("bridge.rabbitmq.dead-letter-channel"));
        try {
            io.github.redisdelaybridge.message.Target.parse(rabbitMq.deadLetterChannel());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("setting bridge.rabbitmq.dead-letter-channel: " + e.getMessage());
        }
        return rabbitMq;
    }
}
