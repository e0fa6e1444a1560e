package dev.weir.engine.emit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.List;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;

/**
 * What a listener is handed cannot be changed through the public API: the engine fills its own fields
 * ({@code dev.weir.engine.fired}, internal) and {@link WindowResult} and {@link LateEvent} only read them.
 */
class ReadOnlyOutputsTest
{
    @Test
    void resultsAndLateEventsHaveNoPublicSetters()
    {
        for (final Class<?> output : List.of(WindowResult.class, LateEvent.class))
        {
            final TreeSet<String> setters = new TreeSet<>();
            for (final Method method : output.getDeclaredMethods())
            {
                // a setter of the old fluent style returned the flyweight itself, or took a value and returned nothing
                final boolean fluent = method.getReturnType() == output;
                final boolean plain = method.getReturnType() == void.class && method.getParameterCount() > 0;
                if (Modifier.isPublic(method.getModifiers()) && !Modifier.isStatic(method.getModifiers()) && (fluent || plain))
                {
                    setters.add(method.getName());
                }
            }
            assertEquals(new TreeSet<String>(), setters, output.getSimpleName() + "'s public setters");
        }
    }
}
