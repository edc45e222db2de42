package io.github.redisdelaybridge.inbound.rabbitmq;

import org.apache.camel.component.springrabbit.DefaultListenerContainerFactory;
import org.apache.camel.component.springrabbit.SpringRabbitMQEndpoint;
import org.springframework.amqp.rabbit.listener.AbstractMessageListenerContainer;
import org.springframework.amqp.rabbit.listener.DirectMessageListenerContainer;

/**
 * camel-spring-rabbitmq's listener containers, reading message properties with
 * {@link VerbatimPropertiesConverter} and coming back quickly after a lost connection: the direct
 * container checks its consumers every 10 s by default and retries a failed connection every 5 s.
 */
public final class VerbatimListenerContainerFactory extends DefaultListenerContainerFactory {

    private static final long RECOVERY_MS = 1_000;

    @Override
    public AbstractMessageListenerContainer createListenerContainer(SpringRabbitMQEndpoint endpoint) {
        AbstractMessageListenerContainer container = super.createListenerContainer(endpoint);
        container.setMessagePropertiesConverter(new VerbatimPropertiesConverter());
        container.setRecoveryInterval(RECOVERY_MS);
        if (container instanceof DirectMessageListenerContainer direct) {
            direct.setMonitorInterval(RECOVERY_MS);
        }
        return container;
    }
}
