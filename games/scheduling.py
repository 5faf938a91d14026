"""Queuing the tasks of games.tasks, by their names: the services and the analysis
hand work to the Celery worker here, so they never import games.tasks (which
imports them) and the imports run one way: tasks -> services, analysis -> scheduling.
The errors of a broker that is away (infra.outages.UNREACHABLE) reach the caller."""
from celery import current_app


def send(name, args, **options):
    # send_task does not read CELERY_TASK_IGNORE_RESULT (apply_async does): without
    # ignore_result it registers with the result backend first, which with Redis away
    # fails with a RuntimeError instead of the broker's OperationalError.
    current_app.send_task(name, args=args, ignore_result=True, **options)


def computer_move(game_id, ply, countdown=0, at_table=False):
    """A table's computer move has a task (and so a queue) of its own: config.settings' routes."""
    send("games.table_move" if at_table else "games.computer_move", (game_id, ply), countdown=countdown)


def analyse_game(analysis_id):
    send("games.analyse_game", (analysis_id,))


def timeout_move(game_id, ply):
    send("games.timeout_move", (game_id, ply))


def credit_downtime():
    send("games.credit_downtime", ())


def turn_mail(game_id, ply):
    send("games.turn_mail", (game_id, ply))
