package io.github.redisdelaybridge.inbound.rabbitmq;

import org.apache.camel.component.springrabbit.DefaultListenerContainerFactory;
import org.apache.camel.component.springrabbit.SpringRabbitMQEndpoint;
import org.springframework.amqp.rabbit.listener.AbstractMessageListenerContainer;

/** camel-spring-rabbitmq's listener containers, reading message properties with {@link VerbatimPropertiesConverter}. */
public final class VerbatimListenerContainerFactory extends DefaultListenerContainerFactory {

    @Override
    public AbstractMessageListenerContainer createListenerContainer(SpringRabbitMQEndpoint endpoint) {
        AbstractMessageListenerContainer container = super.createListenerContainer(endpoint);
        container.setMessagePropertiesConverter(new VerbatimPropertiesConverter());
        return container;
    }
}
