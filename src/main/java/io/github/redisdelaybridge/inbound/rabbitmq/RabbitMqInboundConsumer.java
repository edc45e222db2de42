package io.github.redisdelaybridge.inbound.rabbitmq;

import com.rabbitmq.client.Channel;
import java.util.List;
import org.apache.camel.CamelContext;
import org.apache.camel.Endpoint;
import org.apache.camel.Exchange;
import org.apache.camel.Producer;
import org.apache.camel.support.service.ServiceSupport;
import org.springframework.amqp.core.AcknowledgeMode;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.amqp.rabbit.listener.SimpleMessageListenerContainer;
import org.springframework.amqp.rabbit.listener.api.ChannelAwareBatchMessageListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Consumes the inbound queues in batches and sends each batch through the inbound route ({@value #ROUTE_URI}), which
 * stores it in Redis and then acknowledges it with one multiple-ack. One delivery at a time (camel-spring-rabbitmq's
 * consumer) costs a Redis round trip and an ack per message and tops out at about 2,000 msg/s here; a batch costs them
 * once.
 *
 * <p>Spring AMQP's simple listener container builds the batches on the consumer side: a batch is handed over when it
 * holds {@code batchSize} deliveries or no further delivery came for {@code lingerMs}, so a lone message waits at most
 * that long. Each consumer (channel) reads every inbound queue and handles its batches one after another, which is
 * what makes the multiple-ack exact ({@link RabbitMqDeliveries}).
 */
public final class RabbitMqInboundConsumer extends ServiceSupport implements ChannelAwareBatchMessageListener {

    public static final String ROUTE_URI = "direct:rabbitmq-inbound";

    private static final Logger LOG = LoggerFactory.getLogger(RabbitMqInboundConsumer.class);
    /** How soon a lost connection is tried again (Spring's default is 5 s). */
    private static final long RECOVERY_MS = 1_000;

    /** How it consumes: {@code consumers} channels, each with {@code prefetch} unacknowledged deliveries at most. */
    public record Settings(List<String> queues, int consumers, int prefetch, int batchSize, long lingerMs) {
    }

    private final CamelContext context;
    private final ConnectionFactory connections;
    private final Settings settings;
    private SimpleMessageListenerContainer container;
    private Producer route;

    public RabbitMqInboundConsumer(CamelContext context, ConnectionFactory connections, Settings settings) {
        this.context = context;
        this.connections = connections;
        this.settings = settings;
    }

    @Override
    protected void doStart() throws Exception {
        Endpoint endpoint = context.getEndpoint(ROUTE_URI);
        route = endpoint.createProducer();
        route.start();
        container = new SimpleMessageListenerContainer(connections);
        container.setQueueNames(settings.queues().toArray(String[]::new));
        container.setAcknowledgeMode(AcknowledgeMode.MANUAL);
        container.setConcurrentConsumers(settings.consumers());
        container.setPrefetchCount(settings.prefetch());
        container.setConsumerBatchEnabled(true);
        container.setBatchSize(settings.batchSize());
        container.setReceiveTimeout(Math.max(1, settings.lingerMs()));
        container.setBatchReceiveTimeout(Math.max(1, settings.lingerMs()));
        container.setMessagePropertiesConverter(new VerbatimPropertiesConverter());
        container.setRecoveryInterval(RECOVERY_MS);
        container.setDefaultRequeueRejected(true);
        container.setMissingQueuesFatal(false);
        container.setMessageListener(this);
        container.afterPropertiesSet();
        container.start();
        LOG.info("consuming RabbitMQ queues {} in batches of up to {} (linger {} ms), {} consumer(s), prefetch {}", settings.queues(),
                settings.batchSize(), settings.lingerMs(), settings.consumers(), settings.prefetch());
    }

    @Override
    protected void doStop() throws Exception {
        if (container != null) {
            // waits for the batches being stored; unacknowledged deliveries go back to their queues
            container.stop();
            container.destroy();
        }
        if (route != null) {
            route.stop();
        }
    }

    /** On the consumer's thread: the batch goes through the route; if the route could not even run, it is requeued. */
    @Override
    public void onMessageBatch(List<Message> messages, Channel channel) {
        if (messages.isEmpty()) {
            return;
        }
        RabbitMqDeliveries deliveries = RabbitMqDeliveries.of(messages, channel);
        Exchange exchange = route.getEndpoint().createExchange();
        exchange.setProperty(RabbitMqDeliveries.PROPERTY, deliveries);
        try {
            route.process(exchange);
        } catch (Exception e) {
            exchange.setException(e);
        }
        if (exchange.getException() != null) {
            LOG.warn("{} RabbitMQ deliveries not taken by the inbound route, requeued: {}", messages.size(), exchange.getException().toString());
            RabbitMqBatchRequeuer.nackQuietly(deliveries);
        }
    }

    @Override
    public void onMessage(Message message, Channel channel) {
        onMessageBatch(List.of(message), channel);
    }
}
