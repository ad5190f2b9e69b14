"""A named schedule's identity: a typed, immutable object holding its options.

Each named schedule (``pingpong``, ``4wave``, ``single-buffer``) is a frozen
record subclass of :class:`NamedSchedule` whose fields are its own options,
declared with :func:`option` (type, default, range and help in one place), plus the
:class:`~pipeline_mlir.schedule.config.ScheduleConfig` fields it lets the user
override (``config``).  Everything that needs to know *which* schedule runs reads
this object: the passes (from the ``sched.pipeline`` op's attributes, see
``dialect/ir_io.py``), the kernel generator, the simulator and the ISA check.  They
ask its properties (``has_kernel``, ``kernel_traits``, ``vm_per_load``,
``lgkm_per_load``, ``kernel_geometry()``, ...), never its name.

Every option is checked when an object is made, whichever way: from spec text
(:meth:`NamedSchedule.from_pairs`, what ``parse_pipeline`` uses), from typed values
(:meth:`NamedSchedule.from_values`: IR attributes, Python keyword arguments) or by
calling the class; the options are checked together (tile geometry, overrides the
schedule would not honour) when it is built.  Equal objects describe the same schedule; ``given`` only
remembers which keys were written (and in what order) so that :meth:`spec` prints
them back the way they were given.
"""

from __future__ import annotations

from pipeline_mlir.errors import ConfigError, PipelineError
from pipeline_mlir.options import Option, OptionTable, check_once, value_text
from pipeline_mlir.records import field, fields, record, replace
from pipeline_mlir.schedule.config import ScheduleConfig, SchedulingStrategy


TYPE_CHECKING = False  # typing is not imported at run time (start-up); ClassVar is for readers
if TYPE_CHECKING:
    from typing import ClassVar

STRATEGY_NAMES = tuple(s.name.lower() for s in SchedulingStrategy)

# Per-field ranges of the ScheduleConfig keys (everything else: integer >= 0).
_CONFIG_MIN = {"max_vgpr": 1}


def _schedule_config_options() -> OptionTable:
    defaults = ScheduleConfig()
    out = []
    for f in fields(ScheduleConfig):
        d = getattr(defaults, f.name)
        if f.name == "scheduling":
            out.append(Option(f.name, "enum", d.name.lower(), "ordering strategy",
                              choices=STRATEGY_NAMES))
        elif f.type in ("bool", bool):
            out.append(Option(f.name, "bool", d, "ScheduleConfig field"))
        else:
            out.append(Option(f.name, "int", d, "ScheduleConfig field",
                              min=_CONFIG_MIN.get(f.name, 0),  # the masks: a bit per block (8)
                              max=0xFF if f.name.endswith("_mask") else None))
    return OptionTable(out)


#: the option of a schedule whose waves run it in lockstep, any number of them
#: (:meth:`NamedSchedule.lockstep`; ``4wave``'s ``waves``)
WAVES_OPTION = "waves"

#: every ScheduleConfig field as an option (a double-buffer schedule's ``config`` keys)
SCHEDULE_CONFIG_OPTIONS = _schedule_config_options()


def option(kind: str, default, help: str, *, min: int | None = None, max: int | None = None,
           choices: tuple[str, ...] = ()):
    """A record field that is an option of its schedule (name = the field's name)."""
    return field(default=default, metadata={"option": dict(
        kind=kind, help=help, min=min, max=max, choices=tuple(choices))})


def _config_value(key: str, value):
    return SchedulingStrategy[value.upper()] if key == "scheduling" else value


@record(frozen=True, eq=False, kw_only=True)
class NamedSchedule:
    """The typed identity of a named schedule (see the module docstring)."""

    #: the name ``--pipeline`` and the ``schedule`` attribute use
    name: ClassVar[str] = ""
    summary: ClassVar[str] = ""
    #: whether ScheduleConfig fields are options, and what the base configuration is
    accepts_schedule_config: ClassVar[bool] = True
    config_note: ClassVar[str] = ""
    #: printable names of the schedule's op tags (the IR's data ops map onto them)
    tag_names: ClassVar[dict] = {}

    #: how the complete kernel of this schedule runs it (warps, warp groups, zero-trip
    #: fence, waves per EU: a ``KernelTraits``); ``None``: no complete kernel
    kernel_traits: ClassVar = None
    #: the options ``--tune`` searches, in search order (``Knob``s,
    #: :mod:`pipeline_mlir.schedules.knobs`); empty: the schedule is not tuned
    tune_knobs: ClassVar[tuple] = ()

    #: ScheduleConfig overrides ``((field, value), ...)``, applied on the schedule's base
    config: tuple = ()
    #: the keys written in the spec, in order (printing only; not part of equality)
    given: tuple = ()

    # -- options -----------------------------------------------------------------------
    @classmethod
    def options(cls) -> OptionTable:
        """The schedule's own options, in declaration order."""
        table = cls.__dict__.get("_options")
        if table is None:
            table = OptionTable(Option(f.name, default=f.default, **f.metadata["option"])
                                for f in fields(cls) if "option" in f.metadata)
            cls._options = table
        return table

    @classmethod
    def valid_keys(cls) -> list[str]:
        keys = cls.options().names()
        if cls.accepts_schedule_config:
            keys += [k for k in SCHEDULE_CONFIG_OPTIONS.names() if k not in keys]
        return keys

    @classmethod
    def option(cls, key: str) -> Option | None:
        """The option ``key`` names (own or ScheduleConfig field), or None."""
        opt = cls.options().get(key)
        if opt is None and cls.accepts_schedule_config:
            opt = SCHEDULE_CONFIG_OPTIONS.get(key)
        return opt

    @classmethod
    def owner(cls) -> str:
        return f"pipeline '{cls.name}'"

    @classmethod
    def _lookup(cls, key: str) -> Option:
        opt = cls.option(key)
        if opt is not None:
            return opt
        valid = cls.valid_keys()
        if key in SCHEDULE_CONFIG_OPTIONS:
            raise ConfigError(f"{cls.owner()}: option '{key}' is a ScheduleConfig field, but "
                              f"{cls.config_note}; valid keys: {', '.join(valid)}")
        raise SCHEDULE_CONFIG_OPTIONS.unknown(cls.owner(), key, valid)

    # -- making one --------------------------------------------------------------------
    @classmethod
    def from_pairs(cls, pairs) -> "NamedSchedule":
        """From spec text ``[(key, text), ...]`` (each key once)."""
        seen: dict[str, str] = {}
        values = {}
        for key, text in pairs:
            check_once(cls.owner(), seen, key, text)
            values[key] = cls._lookup(key).parse(cls.owner(), text)
        return cls._make(values)

    @classmethod
    def from_values(cls, values: dict, *, text_allowed: bool = False) -> "NamedSchedule":
        """From ``{key: value}`` of typed values (and text, when ``text_allowed``)."""
        out = {}
        for key, v in values.items():
            opt = cls._lookup(key)
            out[key] = opt.accept(cls.owner(), v) if text_allowed else opt.check(cls.owner(), v)
        return cls._make(out)

    @classmethod
    def first_refusal(cls, values: dict) -> str | None:
        """The key of the first of the typed ``values`` that :meth:`from_values` refuses (it
        checks them in their order), or None where it checks each (``_make`` may still refuse
        them together)."""
        for key, v in values.items():
            try:
                cls._lookup(key).check(cls.owner(), v)
            except ConfigError:
                return key
        return None

    @classmethod
    def _make(cls, values: dict) -> "NamedSchedule":
        own = cls.options()
        kw = {k: v for k, v in values.items() if k in own}
        config = tuple((k, v) for k, v in values.items() if k not in own)
        return cls(config=config, given=tuple(values), **kw)

    def __post_init__(self) -> None:
        owner = self.owner()
        for opt in self.options():
            v = getattr(self, opt.name)
            if v is None and opt.default is None:
                continue  # derived
            checked = opt.check(owner, v)
            if checked != v or type(checked) is not type(v):
                object.__setattr__(self, opt.name, checked)  # enumerations: lower case
        config, seen = [], {}
        for k, v in self.config:
            if k in self.options():
                raise ConfigError(f"{owner}: option '{k}' is the schedule's own option, not a "
                                  f"ScheduleConfig override")
            opt = self._lookup(k)
            check_once(owner, seen, k, value_text(v))
            config.append((k, opt.check(owner, v)))
        object.__setattr__(self, "config", tuple(config))
        object.__setattr__(self, "given", tuple(self.given))

    def with_(self, **changes) -> "NamedSchedule":
        """A copy with some options changed (typed values or text); they count as given."""
        values = dict(self.items())
        values.update(changes)
        order = list(self.given) + [k for k in changes if k not in self.given]
        new = type(self).from_values(values, text_allowed=True)
        return replace(new, given=tuple(k for k in order if k in values))

    # -- reading one -------------------------------------------------------------------
    def get(self, key: str):
        """The value of own option ``key`` (None: derived); KeyError for anything else."""
        if key not in self.options():
            raise KeyError(key)
        return getattr(self, key)

    def own_items(self) -> list[tuple[str, object]]:
        """The own options that were given or differ from their default, given ones first."""
        own = self.options()
        keys = [k for k in self.given if k in own]
        keys += [o.name for o in own if o.name not in keys and getattr(self, o.name) != o.default]
        return [(k, getattr(self, k)) for k in keys]

    def items(self) -> list[tuple[str, object]]:
        """:meth:`own_items`, then the ScheduleConfig overrides (in the given order)."""
        pos = {k: i for i, k in enumerate(self.given)}
        config = sorted(self.config, key=lambda kv: pos.get(kv[0], len(pos)))
        return self.own_items() + config

    def spec(self) -> str:
        """Spec text (parses back to an equal object)."""
        text = " ".join(f"{k}={value_text(v)}" for k, v in self.items())
        return f"{self.name}{{{text}}}" if text else self.name

    def _key(self) -> tuple:
        return (type(self), tuple(getattr(self, o.name) for o in self.options()),
                tuple(sorted(self.config)))

    def __eq__(self, other) -> bool:
        return isinstance(other, NamedSchedule) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    # -- the schedule ------------------------------------------------------------------
    def apply_config(self, base: ScheduleConfig) -> ScheduleConfig:
        """``base`` with the overrides applied."""
        try:
            return base.with_(**{k: _config_value(k, v) for k, v in self.config})
        except ConfigError as e:
            raise ConfigError(f"{self.owner()}: {e}") from None

    def build(self):
        """The core schedule object (a ``PipelineSchedule``).

        Each option was checked on its own when the object was made; here the options are
        checked together (a tile geometry, an override the schedule would not honour)."""
        s = self._build()
        effective = s.schedule_config() if self.config else None
        for k, v in self.config:  # an override the schedule replaces would be ignored
            got, want = getattr(effective, k), _config_value(k, v)
            if got != want:
                opt = SCHEDULE_CONFIG_OPTIONS.get(k)
                shown = got.name.lower() if k == "scheduling" else opt.format(got)
                raise ConfigError(f"{self.owner()}: option '{k}={opt.format(v)}' cannot be "
                                  f"honoured: the schedule always uses {k}={shown}")
        if self.config:  # an override nothing reads would be silently ignored
            self._no_effect(s.unread_config_fields())
        return s

    def _no_effect(self, unread: dict, on: str = "", only: str = "") -> None:
        """ConfigError for the first override in ``unread`` (name -> why)."""
        for k, v in self.config:
            if k in unread:
                opt = SCHEDULE_CONFIG_OPTIONS.get(k)
                raise ConfigError(f"{self.owner()}: option '{k}={opt.format(v)}' has no "
                                  f"effect{on}: {unread[k]}{only}")

    def _build(self):
        raise NotImplementedError

    @property
    def fences_blocks(self) -> bool:
        """Whether the lowering fences every change of block itself (the default of
        ``sched-lower-to-rocdl``'s ``fence-blocks``): yes, unless the schedule's blocks end
        with the schedule barriers ``sched_barrier_mask`` selects (blocks without
        ``minimal_barriers``), which then are the only fences between blocks: a mask bit
        of 0 lets LLVM schedule across that block boundary."""
        if not self.accepts_schedule_config:
            return True
        return "sched_barrier_mask" in self.build().unread_config_fields()

    def kernel_unread_config_fields(self) -> dict[str, str]:
        """The ScheduleConfig fields that, with this configuration, change the printed
        schedule but never the complete kernel that runs it (name -> why); none by
        default."""
        return {}

    def check_kernel_options(self) -> None:
        """ConfigError for an override the complete kernel cannot show: one that changes the
        printed schedule but never the kernel (:meth:`kernel_unread_config_fields`).  The
        schedule emit kinds accept it."""
        self.build()  # an override the schedule itself does not read is that error first
        self._no_effect(self.kernel_unread_config_fields(), " on the kernel",
                        "; it changes only the printed schedule (--emit=schedule or "
                        "schedule-json)")

    def compile(self):
        """Build and compile: the ``ScheduleCompiler`` of the schedule's default body."""
        from pipeline_mlir.schedule.compiler import compile_schedule

        s = self.build()
        try:
            return compile_schedule(s)
        except PipelineError as e:
            # same error class, but say which pipeline it came from
            raise type(e)(f"pipeline '{self.spec()}': {e}") from e

    @property
    def vm_per_load(self) -> tuple[int, ...]:
        """vmcnt entries one global load of A / of B produces, as the schedule counts them
        (then of A's and B's scale tiles, when the schedule has the MX scale channels)."""
        c = self.build().config()
        return tuple(c.vm_per_channel(ch) for ch in range(4 if c.scale_channels else 2))

    @property
    def lgkm_per_load(self) -> tuple[int, int]:
        """lgkmcnt entries one fragment load of A / of B produces, as the waits count them."""
        from pipeline_mlir.schedule.stages import lgkm_per_load

        return lgkm_per_load(self.build())

    # -- the complete kernel -----------------------------------------------------------
    @property
    def has_kernel(self) -> bool:
        """A complete GEMM kernel exists (kernel generator, concrete form, simulator, ISA
        check)."""
        return self.kernel_traits is not None

    def kernel_geometry(self):
        """The ``KernelGeometry`` of the complete kernel (the counts it issues)."""
        raise ConfigError(f"{self.owner()}: no complete GEMM kernel")

    @classmethod
    def lockstep(cls) -> bool:
        """Whether every wave of a kernel runs the schedule in lockstep, so that it takes a
        kernel of any number of waves: it has the option :data:`WAVES_OPTION` (``4wave``).
        Another schedule's kernel runs the fixed number of its ``kernel_traits``."""
        return WAVES_OPTION in cls.options()

    def kernel_waves(self) -> int:
        """The waves of the kernel that runs the schedule: a lockstep schedule's
        :data:`WAVES_OPTION` (read from a kernel given as input), else its complete
        kernel's (``kernel_traits``)."""
        if self.kernel_traits is None:
            raise ConfigError(f"{self.owner()}: no complete GEMM kernel")
        if self.lockstep():
            return self.get(WAVES_OPTION)
        return self.kernel_traits.warps

    def wave_grid(self) -> tuple[int, int]:
        """The waves (M, N) of the kernel that runs the schedule: its complete kernel's
        (``kernel_traits``) unless the schedule says otherwise (``4wave``'s ``waves_m``)."""
        if self.kernel_traits is None:
            raise ConfigError(f"{self.owner()}: no complete GEMM kernel")
        return self.kernel_traits.warps_m, self.kernel_traits.warps_n

    def min_trips(self) -> int:
        """The fewest main-loop trips the complete kernel runs (its launch contract):
        0 unless the schedule says otherwise (``4wave``'s ``loop_once``)."""
        return 0


__all__ = ["NamedSchedule", "SCHEDULE_CONFIG_OPTIONS", "STRATEGY_NAMES", "WAVES_OPTION", "option"]
