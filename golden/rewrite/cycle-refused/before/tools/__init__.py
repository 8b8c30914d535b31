from pkg import run
