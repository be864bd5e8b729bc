"""The teaching notes and formulas in Brazilian Portuguese, and the choice by language.

:data:`LESSON_NOTES_PT` and :data:`FORMULAS_PT` hold, for the same lesson stems and exercise
keys, what :data:`~nothanks_lab.kit.notes.LESSON_NOTES` and
:data:`~nothanks_lab.kit.notes.FORMULAS` say, written for a maths teacher in Brazil (fichas,
cartas, pote, "Não, obrigado!", Pegar, rodada, sequência, robô). The guides pick them through
:func:`lesson_notes` and :func:`formula`, which give the notes of the language in use (the
English ones of :mod:`.notes` otherwise); the minutes are the same as in English.
"""

from __future__ import annotations

from ..i18n import get_language
from .notes import FORMULAS, LESSON_NOTES, LessonNotes

__all__ = ["FORMULAS_PT", "LESSON_NOTES_PT", "formula", "lesson_notes"]

#: Teaching notes per lesson (notebook stem), in Portuguese.
LESSON_NOTES_PT: dict[str, LessonNotes] = {
    "05_your_own_bot": LessonNotes(
        title="Escreva o seu próprio robô e inscreva-o na liga da turma",
        goals=(
            "ler uma PlayerView: o que um robô pode saber, e o que nenhum jogador vê",
            "escrever act(view) que sempre devolve uma jogada válida (pegar quando não há fichas)",
            "salvar um robô na pasta da liga e ler as mensagens quando um robô fica de fora",
            "ler uma classificação com intervalos de 95%: sorte contra habilidade",
        ),
        timings=(
            (5, "seção 1: o que um robô pode ver"),
            (12, "seção 2: os alunos escrevem e alteram act(view)"),
            (8, "seção 3: jogar uma rodada contra o seu robô; vê-lo jogar uma rodada"),
            (8, "seção 4: a pasta da liga; as mensagens dos robôs deixados de fora"),
            (7, "seção 5: rodar a liga da turma (cerca de 20-30 s para dez alunos)"),
            (5, "seção 6: sorte ou habilidade: intervalos e diferenças pareadas"),
        ),
        prompts=(
            "O seu robô venceu a rodada que você jogou contra ele. Ele é um bom robô?",
            "Os intervalos de duas barras se sobrepõem. O que distinguiria os dois robôs?",
            "Por que todos os robôs dos alunos enfrentam as mesmas distribuições e os mesmos "
            "adversários?",
        ),
        misconceptions=(
            "'O meu robô vê as cartas retiradas': ninguém as vê; a visão só tem fatos públicos.",
            "'Devolver \"take\" ou True': act deve devolver Action.TAKE ou Action.PASS.",
            "'Recusar é sempre permitido': sem fichas, o jogador é obrigado a pegar.",
        ),
    ),
    "01_play": LessonNotes(
        title="Jogue uma rodada contra robôs",
        goals=(
            "enunciar as regras: pegar a carta e as fichas do pote, ou pagar uma ficha para "
            "passá-la adiante",
            "calcular a pontuação de uma mão: sequências contam só a menor carta, cada ficha "
            "desconta um",
            "ler o painel de dicas: a probabilidade de uma carta desejada ainda vir, e a "
            "estimativa da rodada inteira de Pegar contra Não, obrigado!",
        ),
        timings=(
            (10, "seção 1: as regras, lidas em voz alta; um exemplo de sequência no quadro"),
            (15, "seção 2: todos jogam uma rodada na mesa de jogo (robôs fáceis)"),
            (5, "seção 3: os dois exercícios de pontuação; em duplas, um confere a mão do outro"),
            (10, "seção 4: o painel de dicas: as suas duas partes, com a posição do caderno"),
            (5, "seção 5: rever a rodada; quando você pegou uma carta sem fichas no pote?"),
        ),
        prompts=(
            "Por que alguém pegaria uma carta com fichas que soma pontos à sua pontuação?",
            "Que cartas você esperava, e elas vieram? O que poderia tê-las impedido?",
            "Um robô nunca esquece quem tem quantas fichas. Isso o ajuda? Como?",
        ),
        misconceptions=(
            "'Uma sequência vale a soma das cartas': vale só a menor carta (27-30 vale 27).",
            "'As fichas só servem para recusar': cada ficha que sobra no final desconta um ponto.",
            "'A vez de quem pega termina': quem pega vira a próxima carta e decide de novo.",
        ),
    ),
    "02_chances_under_removed_cards": LessonNotes(
        title="Probabilidades com cartas retiradas: a carta de que preciso ainda vem?",
        goals=(
            "explicar por que as cartas retiradas tornam incerto qualquer plano",
            "deduzir a probabilidade de uma carta, ou um grupo de cartas, estar em jogo "
            "contando conjuntos retirados igualmente prováveis (o modelo hipergeométrico)",
            "atualizar essa probabilidade à medida que as cartas aparecem na rodada",
            "comparar a probabilidade de fechar uma lacuna de uma carta com a de uma de duas",
        ),
        timings=(
            (4, "seção 1: por que as cartas retiradas importam (a mão 27, 29)"),
            (12, "seção 2: contar conjuntos retirados; o baralho minúsculo listado; grupos"),
            (8, "seção 3: a probabilidade numa rodada real, do ponto de vista do lugar 0"),
            (
                6,
                "seção 4: lacunas de uma e de duas cartas; a probabilidade cai com as vistas",
            ),
            (12, "seção 5: exercícios em duplas"),
            (
                3,
                "fechamento com o explorador: marcar cartas como vistas e ver a probabilidade cair",
            ),
        ),
        prompts=(
            "A probabilidade de o 27 e o 29 estarem ambos em jogo é o quadrado da probabilidade "
            "de um deles? Por que não?",
            "Vinte cartas já foram vistas e o 28 não está entre elas: agora é mais ou menos "
            "provável que ele venha do que no início? Importa quais vinte foram vistas?",
            "Por que uma lacuna de duas cartas é tão mais difícil de fechar que uma de uma?",
        ),
        misconceptions=(
            "'As cartas são independentes': as vagas retiradas são compartilhadas, então uma "
            "carta em jogo torna outra um pouco menos provável.",
            "'Importa quais cartas foram vistas': só importa quantas, desde que a carta "
            "desejada não esteja entre elas.",
            "Escrever uma probabilidade como porcentagem (72,7) quando se pede uma "
            "probabilidade (0,727).",
        ),
    ),
    "03_runs_exact_vs_simulated": LessonNotes(
        title="Sequências: exato contra simulado",
        goals=(
            "contar as sequências que as cartas em jogo formam, no baralho minúsculo listando "
            "todos os conjuntos retirados e no baralho padrão por fórmula",
            "ler a estimativa de uma simulação com o seu intervalo de 95% e o seu erro padrão",
            "ver uma simulação convergir para o valor exato, o intervalo encolhendo como um "
            "sobre a raiz quadrada do número de rodadas",
            "distinguir um erro normal de um intervalo de 95% de um defeito no código",
        ),
        timings=(
            (10, "seção 1: sequências no baralho minúsculo, listadas, depois a fórmula"),
            (7, "seção 2: sequências numa rodada padrão, exatas e simuladas"),
            (8, "seção 3: uma probabilidade simulada: estimativa, intervalo, erros padrão"),
            (8, "seção 4: uma simulação que converge; 100 vezes mais rodadas"),
            (10, "seção 5: exercícios em duplas"),
            (2, "fechamento: quando você confiaria numa simulação sem uma resposta exata?"),
        ),
        prompts=(
            "O intervalo de 95% de uma simulação não cobriu o valor exato. O código está errado?",
            "Quantas rodadas a mais são necessárias para um intervalo dez vezes mais estreito?",
            "Por que dá para listar todos os conjuntos retirados para as cartas de 1 a 7, mas "
            "não de 3 a 35?",
        ),
        misconceptions=(
            "'Um intervalo de 95% sempre cobre o valor verdadeiro': ele erra cerca de uma vez "
            "em vinte.",
            "'O dobro de rodadas, metade da largura': a largura encolhe com a raiz quadrada.",
            "'Uma sequência é qualquer grupo de cartas seguidas na minha mão': aqui as "
            "sequências são as sequências máximas das cartas em jogo, antes de alguém pegá-las.",
        ),
    ),
    "04_chip_value": LessonNotes(
        title="Quanto vale uma ficha?",
        goals=(
            "calcular quanto custa uma jogada considerando só essa jogada, e o pote de "
            "equilíbrio de uma carta",
            "explicar como as sequências na mão mudam esse preço",
            "montar uma simulação pareada a partir de poucas distribuições, e medir quanto "
            "valem fichas a mais numa rodada inteira",
            "(para ir além) explicar por que o lugar na mesa muda o valor de uma ficha a mais",
        ),
        timings=(
            (8, "seção 1: a conta de uma jogada"),
            (10, "seção 2: o pote de equilíbrio e o mapa de calor"),
            (15, "seção 3: simulação pareada: poucas distribuições, depois 1.200; por ficha"),
            (12, "seção 4: exercícios em duplas"),
        ),
        prompts=(
            "Nas poucas distribuições, a diferença que as fichas a mais fizeram foi pequena "
            "em umas e grande em outras, até de sinais opostos. Por que parear ainda ajuda?",
        ),
        misconceptions=(
            "'O pote de equilíbrio é onde Pegar passa a ser melhor': no pote de equilíbrio as "
            "duas jogadas custam o mesmo; Pegar é estritamente melhor uma ficha acima dele.",
            "'O custo de uma carta é o seu número': uma carta ao lado de uma sequência custa "
            "menos, até menos de zero.",
            "'Uma simulação pareada precisa de menos rodadas porque tem mais sorte': ela "
            "compara as mesmas distribuições, então a sorte das cartas se cancela na diferença.",
            "'Os dois experimentos discordam, então um está errado': eles medem uma ficha "
            "para jogadores diferentes (o primeiro lugar, ou o lugar médio).",
        ),
        further=(
            "Depois dos exercícios, «Para ir além» traz por que o pareamento ajuda (o "
            "intervalo em distribuições diferentes), mesas maiores com an.chip_value e o "
            "efeito do lugar (o lugar 0 sempre primeiro contra os lugares girando). Numa aula "
            "só, de 45 ou de 50 minutos, pule esta parte: as quatro seções levam 45 minutos, e "
            "numa aula de 50 minutos os outros 5 ficam para abrir os cadernos e para as "
            "perguntas. Ela serve para uma turma que termina antes, para uma segunda aula ou "
            "para casa; a sua pergunta para discussão: fichas a mais baixaram a pontuação do "
            "lugar 0 quando ele jogava sempre primeiro, mas menos por ficha do que com os "
            "lugares girando. Quem ganha mais com uma ficha a mais, e por quê?"
        ),
    ),
    "04b_take_or_pass": LessonNotes(
        title="Pegar ou Não, obrigado? Simulações a partir de uma decisão",
        goals=(
            "simular a partir de uma decisão, e comparar com as contas de uma jogada",
            "ler uma superfície de pegar contra recusar feita de simulações",
            "explicar a ordenha (deixar o pote crescer), e quando ela sai pela culatra",
            "explorar qualquer carta, pote e mão com o explorador do valor da ficha",
        ),
        timings=(
            (5, "seção 1: revisão das contas de uma jogada e do pote de equilíbrio"),
            (12, "seção 2: simulações: uma decisão jogada até o fim algumas vezes, depois muitas"),
            (12, "seção 3: simulações numa grade; ordenhar o 28 tendo o 27 e o 29"),
            (6, "seção 4: o explorador do valor da ficha"),
            (10, "seção 5: exercícios em duplas"),
        ),
        prompts=(
            "As simulações pegam cartas com um pote menor que o pote de equilíbrio das "
            "contas. O que isso diz sobre o valor de uma ficha?",
            "Tendo o 27 e o 29, por que você diria Não, obrigado! ao 28? Quando isso sai pela "
            "culatra?",
        ),
        misconceptions=(
            "'Uma simulação conhece as cartas viradas para baixo': cada simulação as sorteia "
            "de novo entre as cartas não vistas.",
            "'Ordenhar sempre compensa': só funciona quando nenhum outro jogador quer a carta.",
        ),
    ),
    "07_bot_lab": LessonNotes(
        title="Laboratório de robôs: um torneio justo, sorte contra habilidade, a maldição do "
        "vencedor",
        goals=(
            "dizer por que uma rodada, ou poucas, não distingue um robô melhor de um com mais "
            "sorte",
            "rodar um torneio justo (distribuições pareadas, todas as ordens dos lugares) e "
            "ler proporções de vitórias e uma diferença pareada com intervalos de 95%",
            "explicar a maldição do vencedor: o melhor de muitos resultados ruidosos é "
            "favorecido pela sorte",
        ),
        timings=(
            (
                7,
                "seção 1 (com os objetivos): uma rodada jogada a jogada: quem venceu, foi "
                "habilidade?",
            ),
            (6, "seção 2: sorte contra habilidade: os mesmos robôs em cada vez mais distribuições"),
            (7, "seção 3: um torneio justo: ordem dos lugares, proporções, uma diferença pareada"),
            (5, "seção 4: a maldição do vencedor: escolher o melhor, depois olhar de novo"),
            (
                20,
                "seção 5: torneios dos próprios alunos no widget do laboratório, ou começar "
                "05_your_own_bot",
            ),
        ),
        prompts=(
            "O seu robô venceu a rodada. Ele é o melhor robô? Quantas rodadas convenceriam você?",
            "Os intervalos de dois robôs se sobrepõem, mas a diferença pareada fica acima de "
            "zero. Como?",
            "O vencedor de um torneio pequeno foi pior no grande. Ele piorou?",
        ),
        misconceptions=(
            "'Uma rodada mostra qual robô é melhor': a sorte domina uma única rodada.",
            "'Uma proporção justa é 1/2': com quatro lugares, um robô tão bom quanto a mesa "
            "vence 1/4.",
            "'O resultado do vencedor é a sua força real': ele foi escolhido porque foi bem "
            "nessas distribuições, então está favorecido; confira em distribuições novas.",
        ),
    ),
    "08_bot_lab_for_analysts": LessonNotes(
        title="Laboratório de robôs para analistas: parâmetros, varreduras, ajuste e Dask "
        "(Aprofundamento: universidade / analistas, não uma aula)",
        goals=(
            "ler os parâmetros declarados de um robô e explicar uma das suas decisões",
            "varrer dois parâmetros e ler o mapa de calor",
            "ajustar um parâmetro com o scipy e conferir a escolha em distribuições novas",
            "rodar a mesma varredura em mais processos ou num cluster Dask, com resultados "
            "idênticos",
            "escrever um robô no caminho compilado e conferir que ele joga as jogadas do motor",
        ),
        timings=(
            (7, "seção 1: os robôs, os seus parâmetros, explain()"),
            (10, "seção 2: uma varredura de parâmetros e o seu mapa de calor"),
            (8, "seção 3: o ajuste, e por que a escolha é conferida em distribuições novas"),
            (5, "seção 4: a mesma varredura em mais processos (demonstre, não rode tudo)"),
            (10, "seção 5: um robô compilado seu"),
            (5, "fechamento: o que você ajustaria em seguida, e com quantas distribuições?"),
        ),
        prompts=(
            "Por que o melhor ponto de uma varredura é favorecido pela sorte, e como o ajuste "
            "se protege disso?",
            "O que seria preciso mudar para fazer um robô que bloqueia as sequências dos "
            "outros jogadores?",
            "Por que mais processos dão exatamente os mesmos números?",
        ),
        misconceptions=(
            "'Mais processos dão resultados diferentes': cada pedaço depende só da semente.",
            "'O valor ajustado é a verdade': é uma estimativa a partir de distribuições "
            "ruidosas; confira em distribuições novas.",
            "'Um robô compilado pode ler a visão': a sua função de decisão só vê números e arrays.",
        ),
    ),
    "06_perfect_play": LessonNotes(
        title="Jogo perfeito num baralho minúsculo (Aprofundamento: universidade / analistas, "
        "não uma aula)",
        goals=(
            "dizer o que é uma posição pública, e por que a próxima carta é um sorteio "
            "equiprovável",
            "avaliar uma posição por indução reversa, à mão, nas duas últimas cartas",
            "usar o resolvedor exato numa variante pequena e ler o valor de uma posição",
            "descrever o que o jogo perfeito faz e os robôs simples não fazem (ordenhar, "
            "precificar o pote)",
            "medir a distância de um robô ao jogo perfeito com uma melhor resposta",
        ),
        timings=(
            (6, "seção 1: a variante minúscula e as posições públicas"),
            (10, "seção 2: indução reversa à mão nas duas últimas cartas"),
            (7, "seção 3: resolver o jogo minúsculo inteiro; a desvantagem do primeiro jogador"),
            (7, "seção 4: o que o jogo perfeito faz (ordenhar, como ele precifica o pote)"),
            (5, "seção 5: a que distância cada robô está do jogo perfeito"),
            (10, "seção 6: exercícios em duplas"),
        ),
        prompts=(
            "Por que jogar primeiro perde neste baralho? Perderia no baralho padrão?",
            "O jogo perfeito recusa uma carta ao lado da sua própria sequência. Quando isso "
            "está certo, e o que arrisca?",
            "Uma melhor resposta vence um robô por mais do que o jogo perfeito. A melhor "
            "resposta é uma estratégia melhor?",
        ),
        misconceptions=(
            "'Jogo perfeito quer dizer vencer sempre': ele maximiza a probabilidade de vencer "
            "contra um adversário perfeito, e aqui o primeiro jogador ainda vence menos da "
            "metade das vezes.",
            "'O resolvedor conhece as cartas retiradas': ele avalia posições públicas, fazendo "
            "a média sobre todas as cartas não vistas.",
            "'A explorabilidade é uma taxa de vitórias contra o jogo perfeito': é quanto mais "
            "uma melhor resposta vence contra o robô do que contra o jogo perfeito.",
        ),
    ),
}

#: The formula behind each exercise's answer, in Portuguese (the code in it stays as it is).
FORMULAS_PT: dict[str, str] = {
    "score_hand_7_cards": "as sequências 5-7, 20, 22-23 e 30 contam as suas menores cartas, "
    "menos 4 fichas: 5 + 20 + 22 + 30 - 4",
    "points_change_26_holding_25_27": "a sequência 25-27 vale 25, e 25 e 27 separados valem "
    "52: 25 - (25 + 27)",
    "p28_start": "comb(32, 9) / comb(33, 9) = 24/33",
    "p27_28_29_start": "comb(30, 9) / comb(33, 9)",
    "p28_after_20_seen": "13 cartas não vistas, 4 delas em jogo: comb(12, 9) / comb(13, 9) = 4/13",
    "p_gap_21_22_holding_20_23": "31 cartas não vistas, 9 retiradas entre elas: "
    "comb(29, 9) / comb(31, 9)",
    "one_of_top3_removed": "3 * comb(30, 8) / comb(33, 9)",
    "tiny_single_run": "uma sequência de 5 começa no 1, 2, 3 ou 4: 4 / comb(8, 3) = 4/56",
    "break_even_20": "pegar custa 20 - pote, recusar custa 1: 20 - pote = 1, pote = 20 - 1",
    "break_even_26_holding_27": "pegar o 26 soma 26 - 27 = -1 pontos: -1 - pote = 1, pote = -1 - 1",
    "take_minus_pass_28_holding_27_29": "27, 29 valem 56 e 27, 28, 29 valem 27, então pegar "
    "soma -29 pontos e ganha o pote, enquanto recusar custa uma ficha: -29 - 2 - 1",
    "paired_mean_change": "as diferenças das distribuições, com menos sem: "
    "(-2 + 0 - 11 + 2 - 9) / 5",
    "rollout_take_minus_pass": "as diferenças dos sorteios, Pegar menos Não, obrigado!: "
    "(2 - 6 + 8 - 6) / 4",
    "tiny_two_runs": "comb(4, 1) * comb(4, 2) / comb(8, 5) = 24/56",
    "pp_last_two_cards": "exact.solve(rules).value_of(view) para a posição (à mão: indução "
    "reversa sobre a última carta, como na seção 2)",
    "pp_first_player_two_chips": "exact.solve(nt.Rules(low_card=3, high_card=8, n_removed=2, "
    "chips=((2, 2),))).value",
    "smallest_pot_example_bot_takes_25": "o 25 não fica ao lado do 12 nem do 30, então soma 25 "
    "pontos; o robô pega quando pote >= 0.4 * 25 = 10",
    "games_per_deal_four_bots": "todas as ordens de 4 lugares: 4 * 3 * 2 * 1 = 24",
    "pp_best_response_random": "exact.best_response(rules, [RandomBot(p_take=0.2)], seat=0).value",
    "pp_first_card_8": "siga sol.action(view) a partir do pote 0, exact.after_pass enquanto "
    "ele disser Não, obrigado!; o pote quando ele disser Pegar",
}


def lesson_notes(stem: str) -> LessonNotes | None:
    """The notes of lesson `stem` in the language in use (None for a lesson without notes)."""
    return (LESSON_NOTES_PT if get_language() == "pt_BR" else LESSON_NOTES).get(stem)


def formula(key: str) -> str | None:
    """The formula of exercise `key` in the language in use (None when there is none)."""
    return (FORMULAS_PT if get_language() == "pt_BR" else FORMULAS).get(key)
