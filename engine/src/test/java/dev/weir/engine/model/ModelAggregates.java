package dev.weir.engine.model;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.StringJoiner;
import java.util.function.Predicate;

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
    private String earlyText;
    private Predicate<NamedWindow> early;

    /** A window as an early condition over named aggregates sees it. */
    public interface NamedWindow
    {
        /** @return how many events were added to the window. */
        long count();

        /**
         * @param name an aggregate's name.
         * @return its value over the window, or null when empty (every comparison with it is then false).
         */
        BigDecimal value(String name);
    }

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

    /**
     * @param text      the early condition as the engine is given it, its identifiers naming the aggregates.
     * @param condition the model's own predicate for it.
     * @return this, with the early condition.
     */
    public ModelAggregates earlyWhen(final String text, final Predicate<NamedWindow> condition)
    {
        this.earlyText = Objects.requireNonNull(text, "text");
        this.early = Objects.requireNonNull(condition, "condition");
        return this;
    }

    /** @return the early condition as the engine is given it, or null for none. */
    public String earlyText()
    {
        return earlyText;
    }

    /**
     * @param window the events added to a window, in journal order.
     * @return whether the early condition holds on them.
     */
    public boolean earlyConditionHolds(final List<ModelEntry> window)
    {
        return early.test(new NamedWindow()
        {
            @Override
            public long count()
            {
                return window.size();
            }

            @Override
            public BigDecimal value(final String name)
            {
                return definitions.get(name).over(window);
            }
        });
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
        return "--aggregates '" + text + "'" + (earlyText == null ? "" : " --early-when '" + earlyText + "'");
    }
}
