package dev.weir.engine.model;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.StringJoiner;

/**
 * Named aggregates ({@code --aggregates}) in the reference model, given twice: as the text the engine parses
 * and as the model's own definitions built by hand in the test ({@link ModelCall}, {@link ModelArithmetic}),
 * so the parser is checked too. A name used inside a later result is the Java object of its definition.
 * Test-only; shares no code with the engine.
 */
public final class ModelAggregates
{
    private final String text;
    private final Map<String, ModelResult> definitions = new LinkedHashMap<>();

    /**
     * @param text the list as the engine is given it, e.g. {@code total=sum(amount),n=count()}.
     */
    public ModelAggregates(final String text)
    {
        this.text = Objects.requireNonNull(text, "text");
    }

    /**
     * @param name       the aggregate's name.
     * @param definition the model's definition of it.
     * @return this, with the aggregate added after the earlier ones.
     */
    public ModelAggregates with(final String name, final ModelResult definition)
    {
        if (definitions.putIfAbsent(name, Objects.requireNonNull(definition, "definition")) != null)
        {
            throw new IllegalArgumentException("repeated name " + name);
        }
        return this;
    }

    /** @return the list as the engine is given it. */
    public String text()
    {
        return text;
    }

    /** @return the names, in order. */
    public List<String> names()
    {
        return List.copyOf(definitions.keySet());
    }

    /**
     * @param window the events added to a window, in journal order.
     * @return each aggregate's value over them, in order: null when empty.
     */
    public List<BigDecimal> values(final List<ModelEntry> window)
    {
        final List<BigDecimal> values = new ArrayList<>();
        definitions.values().forEach(d -> values.add(d.over(window)));
        return values;
    }

    /**
     * @param window the events added to a window, in journal order.
     * @return the values as a row's fields: {@code v1,...,vn}, each at its scale, an empty field when empty.
     */
    public String fields(final List<ModelEntry> window)
    {
        final StringJoiner fields = new StringJoiner(",");
        values(window).forEach(v -> fields.add(v == null ? "" : v.toPlainString()));
        return fields.toString();
    }

    @Override
    public String toString()
    {
        return "--aggregates '" + text + "'";
    }
}
