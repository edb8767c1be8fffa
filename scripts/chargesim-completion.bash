# SPDX-License-Identifier: GPL-3.0-or-later
# bash completion for chargesim(1): commands, each command's options (as its
# --help lists them), ruleset names (asked of the program itself), formats,
# methods, and files by kind. Installed by `make install` as
# PREFIX/share/bash-completion/completions/chargesim.

_chargesim_rulesets()
{
    # The first word of each line of `chargesim rules` is a ruleset name.
    "${COMP_WORDS[0]}" rules 2>/dev/null | awk '{ print $1 }'
}

_chargesim()
{
    local cur prev cmd opts
    COMPREPLY=()
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD - 1]}

    if [ "$COMP_CWORD" -eq 1 ]; then
        COMPREPLY=($(compgen -W 'run compare dice rules units draw rerun map --help -h --version -V' -- "$cur"))
        return 0
    fi
    cmd=${COMP_WORDS[1]}

    # Option arguments first.
    case $prev in
    --format)
        COMPREPLY=($(compgen -W 'csv md tex' -- "$cur"))
        return 0 ;;
    --method)
        COMPREPLY=($(compgen -W 'auto mc conditional exact rqmc' -- "$cur"))
        return 0 ;;
    --rules)
        COMPREPLY=($(compgen -W "$(_chargesim_rulesets)" -- "$cur"))
        return 0 ;;
    -o | --dist | --checkpoint)
        COMPREPLY=($(compgen -f -- "$cur"))
        return 0 ;;
    --plot)
        COMPREPLY=($(compgen -f -X '!*.svg' -- "$cur") $(compgen -f -X '!*.png' -- "$cur")
                   $(compgen -f -X '!*.pdf' -- "$cur") $(compgen -d -- "$cur"))
        return 0 ;;
    --mapping)
        COMPREPLY=($(compgen -f -X '!*.ini' -- "$cur") $(compgen -d -- "$cur"))
        return 0 ;;
    --set | --b | --trials | --seed | --threads | --confidence | --precision | --pivot | \
    --distance | --point | --trial | --max-trials | --success | --x | --y | --replicates | \
    --checkpoint-every)
        return 0 ;;
    esac

    case $cmd in
    run)
        opts='--set --trials --seed --threads --method --confidence --precision --replicates --max-trials
              --success --format --pivot -o --dist --quiet --checkpoint --checkpoint-every --help -h' ;;
    compare)
        opts='--b --set --trials --seed --threads --method --confidence --precision --replicates --max-trials
              --success --format --pivot -o --quiet --checkpoint --checkpoint-every --help -h' ;;
    dice)
        opts='--exact --trials --seed --threads --confidence --format -o --help -h' ;;
    rules)
        if [ "$COMP_CWORD" -eq 2 ]; then
            COMPREPLY=($(compgen -W "$(_chargesim_rulesets) --help -h" -- "$cur"))
        fi
        return 0 ;;
    units)
        opts='--rules --mapping --set --distance -o --format --quiet --help -h' ;;
    draw)
        opts='--set --point --trial -o --help -h' ;;
    rerun)
        opts='-o --help -h' ;;
    map)
        opts='--x --y --set --trials --seed --threads --method --confidence --precision
              --replicates --max-trials --success -o --plot --quiet --checkpoint --checkpoint-every
              --help -h' ;;
    *)
        return 0 ;;
    esac

    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
        return 0
    fi
    case $cmd in
    run | compare | draw | map)
        COMPREPLY=($(compgen -f -X '!*.ini' -- "$cur") $(compgen -d -- "$cur")) ;;
    rerun)
        COMPREPLY=($(compgen -f -X '!*-metadata.json' -- "$cur") $(compgen -d -- "$cur")) ;;
    units)
        COMPREPLY=($(compgen -f -X '!*.cat' -- "$cur") $(compgen -f -X '!*.gst' -- "$cur")
                   $(compgen -f -X '!*.csv' -- "$cur") $(compgen -d -- "$cur")) ;;
    esac
    return 0
}

complete -o filenames -F _chargesim chargesim
